import type { Db } from '../../db/client.ts';
import type { WorkspaceRef } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import { ACCESS_TOKEN_PREFIX, hashSecret } from './internal.ts';

export type AuthenticatedGrant = {
	grantId: number;
	userId: number;
	scope: 'read' | 'write';
	workspace: WorkspaceRef;
};

// Writing last-used on every call would make each MCP call a write: once a minute is enough
// for "last used" in Connected apps.
const LAST_USED_GRANULARITY_MS = 60 * 1000;

// Authorization: Bearer us_oat_… → the live grant behind it. An expired token, or a token of a
// revoked or replaced grant, authenticates nothing (the next call is a 401).
export async function authenticateAccessToken(args: {
	db: Db;
	token: string;
}): Promise<AuthenticatedGrant | null> {
	if (!args.token.startsWith(ACCESS_TOKEN_PREFIX) || args.token.length > 200) return null;
	const row = await args.db.oAuthToken.findUnique({
		where: { tokenHash: hashSecret(args.token) },
		include: { grant: { include: { workspace: true } } }
	});
	if (!row || row.kind !== 'access' || row.revokedAt || row.grant.revokedAt) return null;
	if (row.expiresAt.getTime() < Date.now()) return null;
	const { grant } = row;
	// A grant acts for its user in its workspace: without the membership (however it ended:
	// removal revokes the grant, but a membership may also go by other paths) it is nothing.
	const member = await args.db.membership.findUnique({
		where: { workspaceId_userId: { workspaceId: grant.workspaceId, userId: grant.userId } }
	});
	if (!member) return null;
	const now = Date.now();
	if (!grant.lastUsedAt || now - grant.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS)
		await args.db.oAuthGrant.update({
			where: { id: grant.id },
			data: { lastUsedAt: new Date(now) }
		});
	return {
		grantId: grant.id,
		userId: grant.userId,
		scope: grant.scope as 'read' | 'write',
		workspace: {
			id: grant.workspace.id,
			plan: grant.workspace.plan,
			limits: resolveLimits(grant.workspace.limits)
		}
	};
}
