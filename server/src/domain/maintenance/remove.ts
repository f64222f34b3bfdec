import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getMaintenanceInWorkspace, toMaintenanceOutput } from './internal.ts';
import { MaintenanceIdInput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export async function removeMaintenance(args: {
	ctx: ServiceContext;
	input: MaintenanceIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { maintenanceId } = parseInput(MaintenanceIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getMaintenanceInWorkspace({
			tx,
			id: maintenanceId,
			workspaceId: ctx.workspace.id
		});
		await markPageChanged(tx, row.pageId);
		await tx.maintenance.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'maintenance.delete',
			entityType: 'maintenance',
			entityId: row.id,
			before: toMaintenanceOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
