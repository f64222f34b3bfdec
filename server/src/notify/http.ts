import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RefusedTargetError, resolvePublic } from './ssrf.ts';
import type { SendResult } from './types.ts';

export type OutboundRequest = {
	url: string;
	method?: 'POST' | 'PUT';
	headers: Record<string, string>;
	body: string;
	timeoutMs: number;
	// User-given targets are checked against SSRF unless the operator allows private targets.
	guard: boolean;
};

// Every lookup the socket makes goes through the SSRF check: no rebinding between check and use.
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
	resolvePublic(hostname).then(
		(addresses) => {
			if (options.all) callback(null, addresses);
			else callback(null, addresses[0].address, addresses[0].family);
		},
		(err: Error) => callback(err as NodeJS.ErrnoException, '', 0)
	);
};

export async function sendRequest(req: OutboundRequest): Promise<SendResult> {
	let url: URL;
	try {
		url = new URL(req.url);
	} catch {
		return { ok: false, status: 0, error: 'invalid URL' };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return { ok: false, status: 0, error: 'only http and https URLs are allowed' };
	try {
		// IP literals skip DNS lookup, so they are checked here first.
		if (req.guard) await resolvePublic(url.hostname);
	} catch (err) {
		return { ok: false, status: 0, error: (err as Error).message };
	}
	const client = url.protocol === 'https:' ? https : http;
	return new Promise((resolve) => {
		const request = client.request(
			url,
			{
				method: req.method ?? 'POST',
				headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
				lookup: req.guard ? guardedLookup : undefined,
				signal: AbortSignal.timeout(req.timeoutMs)
			},
			(res) => {
				const chunks: Buffer[] = [];
				let size = 0;
				res.on('data', (c: Buffer) => {
					size += c.length;
					if (size <= 65536) chunks.push(c);
				});
				res.on('end', () => {
					const status = res.statusCode ?? 0;
					const body = Buffer.concat(chunks).toString('utf8');
					const ok = status >= 200 && status < 300;
					resolve(ok ? { ok, status } : { ok, status, error: failure(status, body) });
				});
				res.on('error', (err) => resolve({ ok: false, status: 0, error: err.message }));
			}
		);
		request.on('error', (err) =>
			resolve({
				ok: false,
				status: 0,
				error:
					err.name === 'AbortError' || err.name === 'TimeoutError'
						? `timed out after ${req.timeoutMs} ms`
						: err instanceof RefusedTargetError
							? err.message
							: `request failed: ${err.message}`
			})
		);
		request.end(req.body);
	});
}

const failure = (status: number, body: string) =>
	`HTTP ${status}${body ? `: ${body.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
