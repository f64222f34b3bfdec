import type { OAuthDeps } from './deps.ts';
import { OAuthError } from './errors.ts';
import {
	grantActor,
	hashSecret,
	issueTokens,
	REFRESH_TOKEN_PREFIX,
	revokeGrantRow,
	s256,
	withClientAndUser,
	type TokenPair
} from './internal.ts';
import { TokenRequestInput } from './schemas.ts';

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

// POST /oauth/token: authorization_code and refresh_token grants (spec 4.2, 5.1).
export async function requestToken(args: { deps: OAuthDeps; input: unknown }): Promise<TokenPair> {
	const parsed = TokenRequestInput.safeParse(args.input ?? {});
	if (!parsed.success) throw new OAuthError('invalid_request', 'the token request is malformed');
	const input = parsed.data;
	if (input.resource && input.resource.replace(/\/$/, '') !== args.deps.resource)
		throw new OAuthError('invalid_target', `resource must be ${args.deps.resource}`);
	if (input.grant_type === 'authorization_code') return exchangeCode(args.deps, input);
	if (input.grant_type === 'refresh_token') return refresh(args.deps, input);
	throw new OAuthError(
		input.grant_type ? 'unsupported_grant_type' : 'invalid_request',
		'grant_type must be authorization_code or refresh_token'
	);
}

// A code works once, within its minute, for its client, redirect URI and PKCE verifier.
// Presenting a used code again revokes the grant it produced (RFC 6749 4.1.2).
async function exchangeCode(deps: OAuthDeps, input: TokenRequestInput): Promise<TokenPair> {
	if (!input.code || !input.code_verifier || !input.client_id)
		throw new OAuthError('invalid_request', 'code, code_verifier and client_id are required');
	const { code, code_verifier: verifier, client_id: clientId } = input;
	const result = await deps.db.$transaction(async (tx) => {
		const row = await tx.oAuthAuthorizationCode.findUnique({
			where: { codeHash: hashSecret(code) }
		});
		if (!row) throw invalidGrant('the authorization code is unknown');
		const grant = row.grantId
			? await tx.oAuthGrant.findUnique({ where: { id: row.grantId }, include: withClientAndUser })
			: null;
		const claimed = await tx.oAuthAuthorizationCode.updateMany({
			where: { id: row.id, usedAt: null },
			data: { usedAt: new Date() }
		});
		if (claimed.count === 0) {
			if (grant)
				await revokeGrantRow({
					tx,
					grant,
					actor: grantActor(grant),
					reason: 'authorization code used twice'
				});
			return { reused: true as const };
		}
		if (row.expiresAt.getTime() < Date.now()) throw invalidGrant('the authorization code expired');
		if (row.clientId !== clientId) throw invalidGrant('the code was issued to another client');
		if (input.redirect_uri !== undefined && input.redirect_uri !== row.redirectUri)
			throw invalidGrant('redirect_uri does not match the authorization request');
		if (s256(verifier) !== row.codeChallenge)
			throw invalidGrant('PKCE verification failed: code_verifier does not match code_challenge');
		if (!grant || grant.revokedAt) throw invalidGrant('the connection was revoked');
		return { reused: false as const, pair: await issueTokens(tx, grant) };
	});
	// Outside the transaction so the revocation commits before the client hears of it.
	if (result.reused)
		throw invalidGrant('the authorization code was already used: the connection is revoked');
	return result.pair;
}

// Rotation with reuse detection: the refresh token is spent, a new pair issued; a spent refresh
// token presented again means two parties hold it, so the grant is revoked.
async function refresh(deps: OAuthDeps, input: TokenRequestInput): Promise<TokenPair> {
	const token = input.refresh_token;
	if (!token) throw new OAuthError('invalid_request', 'refresh_token is required');
	if (!token.startsWith(REFRESH_TOKEN_PREFIX)) throw invalidGrant('the refresh token is unknown');
	const result = await deps.db.$transaction(async (tx) => {
		const row = await tx.oAuthToken.findUnique({
			where: { tokenHash: hashSecret(token) },
			include: { grant: { include: withClientAndUser } }
		});
		if (!row || row.kind !== 'refresh') throw invalidGrant('the refresh token is unknown');
		const { grant } = row;
		if (input.client_id && input.client_id !== grant.clientId)
			throw invalidGrant('the refresh token was issued to another client');
		if (grant.revokedAt) throw invalidGrant('the connection was revoked');
		const member = await tx.membership.findUnique({
			where: { workspaceId_userId: { workspaceId: grant.workspaceId, userId: grant.userId } }
		});
		if (!member) throw invalidGrant('the user is no longer a member of the workspace');
		const spent = await tx.oAuthToken.updateMany({
			where: { id: row.id, revokedAt: null },
			data: { revokedAt: new Date() }
		});
		if (spent.count === 0) {
			await revokeGrantRow({
				tx,
				grant,
				actor: grantActor(grant),
				reason: 'refresh token reused'
			});
			return { reused: true as const };
		}
		if (row.expiresAt.getTime() < Date.now()) throw invalidGrant('the refresh token expired');
		return { reused: false as const, pair: await issueTokens(tx, grant) };
	});
	if (result.reused)
		throw invalidGrant('the refresh token was already used: the connection is revoked');
	return result.pair;
}
