import https from 'node:https';
import { guardedLookup } from '../notify/http.ts';
import { resolvePublic } from '../notify/ssrf.ts';

const TIMEOUT_MS = 5000;
const MAX_BYTES = 16 * 1024;

// Fetches a Client ID Metadata Document: https only, public addresses only (the notify SSRF
// guard, checked again at connect so DNS rebinding is refused), 5 s, 16 KiB, application/json,
// no redirects. `testCa` (tests only) trusts a local CA and lets loopback through.
export function createClientDocumentFetcher(opts: { testCa?: string }) {
	return async (url: string): Promise<unknown> => {
		const target = new URL(url);
		if (target.protocol !== 'https:') throw new Error('the document must be served over https');
		if (!opts.testCa) await resolvePublic(target.hostname);
		const body = await new Promise<string>((resolve, reject) => {
			const req = https.get(
				target,
				{
					headers: { accept: 'application/json' },
					lookup: opts.testCa ? undefined : guardedLookup,
					ca: opts.testCa,
					signal: AbortSignal.timeout(TIMEOUT_MS)
				},
				(res) => {
					const type = String(res.headers['content-type'] ?? '')
						.split(';')[0]
						.trim();
					if (res.statusCode !== 200) {
						res.resume();
						return reject(new Error(`HTTP ${res.statusCode}`));
					}
					if (type !== 'application/json') {
						res.resume();
						return reject(new Error(`content type ${type || 'none'} is not application/json`));
					}
					const chunks: Buffer[] = [];
					let size = 0;
					res.on('data', (c: Buffer) => {
						size += c.length;
						if (size > MAX_BYTES) {
							req.destroy();
							reject(new Error(`the document is larger than ${MAX_BYTES} bytes`));
						} else chunks.push(c);
					});
					res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
					res.on('error', reject);
				}
			);
			req.on('error', (err) =>
				reject(
					err.name === 'AbortError' || err.name === 'TimeoutError'
						? new Error(`timed out after ${TIMEOUT_MS} ms`)
						: err
				)
			);
		});
		try {
			return JSON.parse(body);
		} catch {
			throw new Error('the document is not valid JSON');
		}
	};
}
