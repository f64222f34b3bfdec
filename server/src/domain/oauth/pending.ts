import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AuthorizationRequest } from './authorize.ts';
import { OAuthError } from './errors.ts';
import { Access } from './schemas.ts';

// An authorization request as /oauth/authorize checked it (a Client ID Metadata Document is
// fetched there, once per request: spec 4.2 rule 5), sealed with an HMAC for the consent
// screen. The screen, Allow and Deny use it as it is: the document is not fetched again for the
// same request, and nothing in it (redirect URI, scope, PKCE challenge) can be altered on the
// way. It lasts long enough to sign in by e-mail first.
export const PENDING_REQUEST_TTL_MS = 30 * 60 * 1000;

const Sealed = z.object({
	clientId: z.string(),
	clientName: z.string(),
	clientOrigin: z.string(),
	redirectUri: z.string(),
	scope: Access,
	state: z.string().optional(),
	codeChallenge: z.string(),
	resource: z.string(),
	expiresAt: z.number()
});
export type PendingRequest = Omit<z.infer<typeof Sealed>, 'expiresAt'>;

const mac = (key: string, payload: string) =>
	createHmac('sha256', key).update(`oauth-request.${payload}`).digest('base64url');

export function sealRequest(key: string, request: AuthorizationRequest): string {
	const payload = Buffer.from(
		JSON.stringify({
			clientId: request.client.row.id,
			clientName: request.clientName,
			clientOrigin: request.clientOrigin,
			redirectUri: request.redirectUri,
			scope: request.scope,
			state: request.state,
			codeChallenge: request.codeChallenge,
			resource: request.resource,
			expiresAt: Date.now() + PENDING_REQUEST_TTL_MS
		} satisfies z.infer<typeof Sealed>)
	).toString('base64url');
	return `${payload}.${mac(key, payload)}`;
}

const startAgain = (why: string) =>
	new OAuthError('invalid_request', `${why}: go back to the app and connect again`);

export function openRequest(key: string, sealed: string): PendingRequest {
	const [payload = '', signature = ''] = sealed.split('.');
	const expected = Buffer.from(mac(key, payload));
	const given = Buffer.from(signature);
	if (given.length !== expected.length || !timingSafeEqual(given, expected))
		throw startAgain('the authorization request is not one this server issued');
	let parsed: ReturnType<typeof Sealed.safeParse>;
	try {
		parsed = Sealed.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
	} catch {
		throw startAgain('the authorization request is not one this server issued');
	}
	if (!parsed.success) throw startAgain('the authorization request is not one this server issued');
	if (parsed.data.expiresAt < Date.now()) throw startAgain('the authorization request expired');
	const { expiresAt: _, ...request } = parsed.data;
	return request;
}
