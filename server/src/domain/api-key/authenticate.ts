import type { Db } from '../../db/client.ts';
import { resolveLimits } from '../limits.ts';
import type { WorkspaceRef } from '../context.ts';
import { KEY_PREFIX, hashKey } from './internal.ts';

export type AuthenticatedKey = {
	keyId: number;
	scope: 'read' | 'write';
	createdById: number | null;
	workspace: WorkspaceRef;
};

const LAST_USED_RESOLUTION_MS = 60_000;

// x-service-key lookup by hash; unknown or revoked keys authenticate nothing.
export async function authenticateApiKey(args: {
	db: Db;
	key: string;
}): Promise<AuthenticatedKey | null> {
	if (!args.key.startsWith(KEY_PREFIX) || args.key.length > 200) return null;
	const row = await args.db.apiKey.findUnique({
		where: { keyHash: hashKey(args.key) },
		include: { workspace: true }
	});
	if (!row || row.revokedAt) return null;
	// Last use to the minute: a write on every call would serialise all API traffic on the database.
	if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS)
		await args.db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
	return {
		keyId: row.id,
		scope: row.scope as AuthenticatedKey['scope'],
		createdById: row.createdById,
		workspace: {
			id: row.workspace.id,
			plan: row.workspace.plan,
			limits: resolveLimits(row.workspace.limits)
		}
	};
}
