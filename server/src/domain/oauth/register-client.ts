import { randomBytes } from 'node:crypto';
import { parseInput } from '../parse.ts';
import type { OAuthDeps } from './deps.ts';
import { OAuthError } from './errors.ts';
import { isAllowedRedirectUri } from './redirect-uri.ts';
import { RegisterClientInput, type RegisteredClientOutput } from './schemas.ts';

const UNUSED_CLIENT_TTL_MS = 24 * 60 * 60 * 1000;

// Dynamic client registration (RFC 7591) for public clients with allowed redirect URIs.
export async function registerClient(args: {
	deps: OAuthDeps;
	input: unknown;
}): Promise<RegisteredClientOutput> {
	let input: ReturnType<typeof RegisterClientInput.parse>;
	try {
		input = parseInput(RegisterClientInput, args.input);
	} catch (err) {
		throw new OAuthError('invalid_client_metadata', (err as Error).message);
	}
	const method = input.token_endpoint_auth_method ?? 'none';
	if (method !== 'none')
		throw new OAuthError(
			'invalid_client_metadata',
			'token_endpoint_auth_method must be none: only public clients (PKCE, no secret) are supported'
		);
	const bad = input.redirect_uris.find((u) => !isAllowedRedirectUri(u, args.deps.redirectPolicy));
	if (bad)
		throw new OAuthError(
			'invalid_redirect_uri',
			`redirect URI ${bad} is not allowed: use a loopback address, an https URL of an allowed assistant domain, or an editor scheme (${args.deps.redirectPolicy.schemes.join(', ')})`
		);
	const unsupported = (input.grant_types ?? []).find(
		(g) => g !== 'authorization_code' && g !== 'refresh_token'
	);
	if (unsupported)
		throw new OAuthError('invalid_client_metadata', `grant type ${unsupported} is not supported`);
	// Registrations pile up (assistants register once per connection): one that led to no
	// consent within a day is dropped. Its app, if it ever comes back, registers again.
	await args.deps.db.oAuthClient.deleteMany({
		where: {
			isMetadataDocument: false,
			createdAt: { lt: new Date(Date.now() - UNUSED_CLIENT_TTL_MS) },
			grants: { none: {} },
			codes: { none: {} }
		}
	});
	const row = await args.deps.db.oAuthClient.create({
		data: {
			id: `uc_${randomBytes(16).toString('base64url')}`,
			clientName: input.client_name?.trim() || 'Unnamed client',
			redirectUris: JSON.stringify(input.redirect_uris)
		}
	});
	console.log(`[oauth] client registered clientId=${row.id}`);
	return {
		client_id: row.id,
		client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
		client_name: row.clientName,
		redirect_uris: input.redirect_uris,
		grant_types: ['authorization_code', 'refresh_token'],
		response_types: ['code'],
		token_endpoint_auth_method: 'none',
		scope: 'read write'
	};
}
