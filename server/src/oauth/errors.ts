import type { Response } from 'express';
import { OAuthError } from '../domain/oauth/index.ts';
import { bodyReadError } from '../adapters/body-errors.ts';
import { toServiceError } from '../router/errors.ts';

// Every OAuth endpoint error is an RFC 6749 body {error, error_description} (spec 7.2).
export function sendOAuthError(res: Response, err: unknown): void {
	const { status, error, description } = toOAuthError(err);
	res
		.status(status)
		.set('Cache-Control', 'no-store')
		.json({ error, error_description: description });
}

export function toOAuthError(err: unknown): { status: number; error: string; description: string } {
	if (err instanceof OAuthError)
		return {
			status: err.error === 'invalid_client' ? 401 : 400,
			error: err.error,
			description: err.message
		};
	const type = (err as { type?: string })?.type;
	if (type === 'entity.too.large')
		return { status: 413, error: 'invalid_request', description: 'the request body is too large' };
	if (err instanceof SyntaxError || type === 'entity.parse.failed')
		return { status: 400, error: 'invalid_request', description: 'the request body is not valid' };
	const unread = bodyReadError(err);
	if (unread)
		return { status: unread.status, error: 'invalid_request', description: unread.message };
	const e = toServiceError(err);
	if (e.code === 'VALIDATION')
		return { status: 400, error: 'invalid_request', description: e.message };
	console.error(
		`[oauth] internal error ${e.cause instanceof Error ? e.cause.stack : String(e.cause)}`
	);
	return { status: 500, error: 'server_error', description: 'internal error: try again later' };
}
