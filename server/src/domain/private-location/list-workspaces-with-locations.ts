import type { Db } from '../../db/client.ts';
import type { WorkspaceRef } from '../context.ts';
import { resolveLimits } from '../limits.ts';

// The workspaces the health cron visits: those with at least one private location.
export async function listWorkspacesWithLocations(args: { db: Db }): Promise<WorkspaceRef[]> {
	const rows = await args.db.workspace.findMany({
		where: { privateLocations: { some: {} } },
		select: { id: true, plan: true, limits: true },
		orderBy: { id: 'asc' }
	});
	return rows.map((w) => ({ id: w.id, plan: w.plan, limits: resolveLimits(w.limits) }));
}
