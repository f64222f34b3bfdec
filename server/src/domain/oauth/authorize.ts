import { parseInput } from '../parse.ts';
import type { OAuthDeps } from './deps.ts';
import { OAuthError, type OAuthErrorCode } from './errors.ts';
import { clientOrigin } from './internal.ts';
import { matchesRedirectUri } from './redirect-uri.ts';
import { resolveClient, type ResolvedClient } from './resolve-client.ts';
import { AuthorizationRequestInput, type Access } from './schemas.ts';

export type AuthorizationRequest = {
	client: ResolvedClient;
	clientName: string;
	clientOrigin: string; // "registered" or the metadata document's host
	redirectUri: string;
	scope: Access; // what the client asked for
	state: string | undefined;
	codeChallenge: string;
	resource: string;
};

// The redirect back to the client (RFC 6749 4.1.2), with `iss` (RFC 9207).
export function clientRedirect(
	deps: OAuthDeps,
	redirectUri: string,
	params: Record<string, string | undefined>
): string {
	const url = new URL(redirectUri);
	for (const [k, v] of Object.entries({ ...params, iss: deps.issuer }))
		if (v !== undefined) url.searchParams.set(k, v);
	return url.href;
}

// Spec 4.2 rule 2: no scope asks for write; "read write" is write.
function parseScope(raw: string | undefined): Access | null {
	const words = (raw ?? '').split(' ').filter(Boolean);
	if (words.length === 0) return 'write';
	if (words.some((w) => w !== 'read' && w !== 'write')) return null;
	return words.includes('write') ? 'write' : 'read';
}

// Checks an authorization request. Until the client and its redirect URI are known, errors are
// thrown plain (the caller shows a page); after that they carry the redirect to the client.
export async function checkAuthorizationRequest(args: {
	deps: OAuthDeps;
	input: AuthorizationRequestInput;
}): Promise<AuthorizationRequest> {
	const { deps } = args;
	let input: ReturnType<typeof AuthorizationRequestInput.parse>;
	try {
		input = parseInput(AuthorizationRequestInput, args.input);
	} catch (err) {
		throw new OAuthError('invalid_request', (err as Error).message);
	}
	if (!input.client_id) throw new OAuthError('invalid_request', 'client_id is required');
	const client = await resolveClient(deps, input.client_id);
	const redirectUri =
		input.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
	if (!redirectUri)
		throw new OAuthError('invalid_request', 'redirect_uri is required: the client has several');
	if (!matchesRedirectUri(redirectUri, client.redirectUris))
		throw new OAuthError(
			'invalid_request',
			`redirect_uri ${redirectUri} is not one of the client's redirect URIs`
		);
	const fail = (error: OAuthErrorCode, description: string) =>
		new OAuthError(
			error,
			description,
			clientRedirect(deps, redirectUri, {
				error,
				error_description: description,
				state: input.state
			})
		);
	if (input.response_type !== 'code')
		throw fail('unsupported_response_type', 'response_type must be code');
	if (!input.code_challenge || !/^[\w-]{43,128}$/.test(input.code_challenge))
		throw fail('invalid_request', 'PKCE is required: send a code_challenge with method S256');
	if (input.code_challenge_method !== 'S256')
		throw fail('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
	const scope = parseScope(input.scope);
	if (!scope) throw fail('invalid_scope', 'scope must be read, write or both');
	const resource = input.resource?.replace(/\/$/, '') ?? deps.resource;
	if (resource !== deps.resource) throw fail('invalid_target', `resource must be ${deps.resource}`);
	return {
		client,
		clientName: client.row.clientName,
		clientOrigin: clientOrigin(client.row),
		redirectUri,
		scope,
		state: input.state,
		codeChallenge: input.code_challenge,
		resource
	};
}
