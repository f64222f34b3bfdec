import type { Db } from '../../db/client.ts';
import { hashAgentKey } from './internal.ts';

export type AuthenticatedLocation = {
	privateLocationId: number;
	workspaceId: number;
	name: string;
};

// SERVICE_KEY lookup for the ingest server; an unknown or deleted location authenticates nothing.
export async function authenticatePrivateLocation(args: {
	db: Db;
	key: string;
}): Promise<AuthenticatedLocation | null> {
	if (!args.key.startsWith('usp_') || args.key.length > 200) return null;
	const row = await args.db.privateLocation.findUnique({
		where: { tokenHash: hashAgentKey(args.key) }
	});
	return row ? { privateLocationId: row.id, workspaceId: row.workspaceId, name: row.name } : null;
}
