import type { Db } from '../../db/client.ts';
import type { WorkspaceRef } from '../context.ts';
import { resolveLimits } from '../limits.ts';

// Workspaces as the system sees them (jobs, the workflows app): id, plan and resolved limits.
// Not scoped to a caller: only process-internal code that acts as the system uses these.

// One workspace, or null when it does not exist (deleted meanwhile).
export async function findWorkspaceRef(args: {
	db: Db;
	workspaceId: number;
}): Promise<WorkspaceRef | null> {
	const row = await args.db.workspace.findUnique({
		where: { id: args.workspaceId },
		select: { id: true, plan: true, limits: true }
	});
	return row && { ...row, limits: resolveLimits(row.limits) };
}

// Every workspace, oldest first.
export async function listWorkspaceRefs(args: { db: Db }): Promise<WorkspaceRef[]> {
	const rows = await args.db.workspace.findMany({
		select: { id: true, plan: true, limits: true },
		orderBy: { id: 'asc' }
	});
	return rows.map((row) => ({ ...row, limits: resolveLimits(row.limits) }));
}
