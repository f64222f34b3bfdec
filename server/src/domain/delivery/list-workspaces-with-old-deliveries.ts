import type { Db } from '../../db/client.ts';
import type { WorkspaceRef } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import { DELIVERY_RETENTION_FLOOR_MS, FINISHED_DELIVERY_STATUSES } from './prune-deliveries.ts';

// The workspaces the delivery-retention job visits: those with a finished outbox row older than
// the shortest window (the floor). One probe per workspace on the (workspace_id, status,
// created_at) index; a single `some` join would walk every sent row of the table instead.
export async function listWorkspacesWithOldDeliveries(args: {
	db: Db;
	now?: Date;
}): Promise<WorkspaceRef[]> {
	const before = new Date((args.now ?? new Date()).getTime() - DELIVERY_RETENTION_FLOOR_MS);
	const workspaces = await args.db.workspace.findMany({
		select: { id: true, plan: true, limits: true },
		orderBy: { id: 'asc' }
	});
	const out: WorkspaceRef[] = [];
	for (const w of workspaces) {
		const old = await args.db.delivery.findFirst({
			where: {
				workspaceId: w.id,
				status: { in: FINISHED_DELIVERY_STATUSES },
				createdAt: { lt: before }
			},
			select: { id: true }
		});
		if (old) out.push({ id: w.id, plan: w.plan, limits: resolveLimits(w.limits) });
	}
	return out;
}
