import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { validationErrorFrom } from '../../domain/parse.ts';

// The HTTP side of /mcp that the SDK leaves to us: Express ↔ web Request/Response, DNS-rebinding
// checks, the cost of a body, and readable -32602 errors for malformed protocol params.

export function jsonRpcError(res: Response, status: number, code: number, message: string): void {
	res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

// DNS-rebinding protection: Host must name the API server (or an extra configured host), and a
// browser's Origin one of the product's own origins (or an extra configured one).
export function rejectForeignOrigin(
	req: Request,
	allowed: { hosts: string[]; origins: string[] }
): string | null {
	const host = validateHostHeader(req.headers.host, allowed.hosts);
	if (!host.ok) return host.message;
	const origin = validateOriginHeader(req.headers.origin, allowed.origins);
	return origin.ok ? null : origin.message;
}

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
const messagesOf = (body: unknown): Message[] =>
	(Array.isArray(body) ? body : [body]).filter(
		(m): m is Message => typeof m === 'object' && m !== null
	);

// Every tool call costs one, each call inside a JSON-RPC batch too, and so does every other
// message of a batch (a batch of a thousand tools/list or resources/read is that much work).
export function requestCost(body: unknown): number {
	return Math.max(1, messagesOf(body).length);
}

// The SDK answers malformed params with a raw zod dump (and -32603 for resources/read); spec 7.1
// wants malformed input as -32602 with a message a person can act on. A batch with any malformed
// message is refused as a whole.
const PARAMS: Record<string, z.ZodType> = {
	'tools/call': z.object({
		name: z.string(),
		arguments: z.record(z.string(), z.unknown()).optional()
	}),
	'resources/read': z.object({ uri: z.string() })
};

export function malformedParams(body: unknown): unknown[] {
	const errors: unknown[] = [];
	for (const m of messagesOf(body)) {
		// Own keys only: a method named `__proto__` or `constructor` is the SDK's -32601.
		const schema =
			typeof m.method === 'string' && Object.hasOwn(PARAMS, m.method)
				? PARAMS[m.method]
				: undefined;
		const parsed = schema?.safeParse(m.params);
		if (!parsed || parsed.success) continue;
		const message = `invalid params for ${m.method}: ${validationErrorFrom(parsed.error).message}`;
		errors.push({ jsonrpc: '2.0', id: m.id ?? null, error: { code: -32602, message } });
	}
	return errors;
}

export function toWebRequest(req: Request, body: string): globalThis.Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
	}
	return new globalThis.Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, {
		method: req.method,
		headers,
		body
	});
}

export function sendWebResponse(res: Response, response: globalThis.Response): void {
	res.status(response.status);
	response.headers.forEach((value, name) => res.setHeader(name, value));
	if (!response.body) {
		res.end();
		return;
	}
	// safe because the global fetch Response body is node:stream/web's ReadableStream
	Readable.fromWeb(response.body as ReadableStream).pipe(res);
}
