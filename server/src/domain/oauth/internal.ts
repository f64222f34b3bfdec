import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClient, OAuthGrant, User } from '@prisma/client';
import { writeAudit } from '../audit.ts';
import type { Actor, ServiceContext } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import type { Tx } from '../transaction.ts';
import type { GrantOutput } from './schemas.ts';

// Spec 5.1 and 8: access tokens carry a prefix ending in `oat_` and last an hour; refresh
// tokens last 90 days from their last use (each refresh issues a new one); codes a minute.
export const ACCESS_TOKEN_PREFIX = 'us_oat_';
export const REFRESH_TOKEN_PREFIX = 'us_ort_';
export const CODE_PREFIX = 'us_oac_';
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;
export const CODE_TTL_MS = 60 * 1000;

export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

// PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)) must equal the challenge.
export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export type TokenPair = {
	access_token: string;
	token_type: 'Bearer';
	expires_in: number;
	refresh_token: string;
	scope: string;
};

export async function issueTokens(tx: Tx, grant: OAuthGrant): Promise<TokenPair> {
	const access = newSecret(ACCESS_TOKEN_PREFIX);
	const refresh = newSecret(REFRESH_TOKEN_PREFIX);
	const now = Date.now();
	await tx.oAuthToken.createMany({
		data: [
			{
				grantId: grant.id,
				kind: 'access',
				tokenHash: hashSecret(access),
				expiresAt: new Date(now + ACCESS_TOKEN_TTL_MS)
			},
			{
				grantId: grant.id,
				kind: 'refresh',
				tokenHash: hashSecret(refresh),
				expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS)
			}
		]
	});
	return {
		access_token: access,
		token_type: 'Bearer',
		expires_in: ACCESS_TOKEN_TTL_MS / 1000,
		refresh_token: refresh,
		scope: grant.scope
	};
}

// The audit context of a grant's own workspace (a replaced grant may be in another one).
export async function grantCtx(tx: Tx, grant: OAuthGrant, actor: Actor): Promise<ServiceContext> {
	const ws = await tx.workspace.findUniqueOrThrow({ where: { id: grant.workspaceId } });
	return {
		db: tx as unknown as ServiceContext['db'], // safe because writeAudit only reads workspace and actor
		workspace: { id: ws.id, plan: ws.plan, limits: resolveLimits(ws.limits) },
		actor,
		requestId: 'oauth'
	};
}

export const grantActor = (grant: OAuthGrant): Actor => ({
	type: 'oauth',
	grantId: grant.id,
	userId: grant.userId,
	scope: grant.scope as 'read' | 'write'
});

// Revokes a live grant (its tokens stop working: authentication checks the grant) and
// writes `oauth_grant.delete` in the grant's workspace. Revoking a revoked grant does nothing.
export async function revokeGrantRow(args: {
	tx: Tx;
	grant: OAuthGrant & { client: OAuthClient; user: User };
	actor: Actor;
	reason: string;
}): Promise<void> {
	const { tx, grant } = args;
	const { count } = await tx.oAuthGrant.updateMany({
		where: { id: grant.id, revokedAt: null },
		data: { revokedAt: new Date() }
	});
	if (count === 0) return;
	await writeAudit({
		ctx: await grantCtx(tx, grant, args.actor),
		tx,
		...grantDeleteAudit(grant, args.reason)
	});
}

// The `oauth_grant.delete` entry (spec 6); logged as it is written.
export function grantDeleteAudit(
	grant: OAuthGrant & { client: OAuthClient; user: User },
	reason: string
) {
	console.log(`[oauth] grant revoked grantId=${grant.id} reason="${reason}"`);
	return {
		action: 'oauth_grant.delete',
		entityType: 'oauth_grant',
		entityId: grant.id,
		before: { ...toGrantOutput(grant), reason },
		after: null
	};
}

export const withClientAndUser = { client: true, user: true } as const;

// Where a client came from, for people: "registered" or the metadata document URL's host.
export const clientOrigin = (client: OAuthClient) =>
	client.isMetadataDocument ? new URL(client.id).host : 'registered';

export function toGrantOutput(
	grant: OAuthGrant & { client: OAuthClient; user: User }
): GrantOutput {
	return {
		id: grant.id,
		client_id: grant.clientId,
		client_name: grant.client.clientName,
		client_origin: clientOrigin(grant.client),
		scope: grant.scope as 'read' | 'write',
		user_id: grant.userId,
		user_email: grant.user.email,
		created_at: grant.createdAt.toISOString(),
		last_used_at: grant.lastUsedAt?.toISOString() ?? null
	};
}
