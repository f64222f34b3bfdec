import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { checkComponentsOnPage } from '../status-report/internal.ts';
import { withTransaction } from '../transaction.ts';
import { getMaintenanceInWorkspace, toMaintenanceOutput } from './internal.ts';
import { UpdateMaintenanceInput, type MaintenanceOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

// Fields not sent keep their value; pageComponentIds, when sent, replaces the set.
export async function updateMaintenance(args: {
	ctx: ServiceContext;
	input: UpdateMaintenanceInput;
}): Promise<MaintenanceOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(UpdateMaintenanceInput, args.input);
	requireFeature(ctx.workspace.limits, 'maintenance');
	return withTransaction(ctx, async (tx) => {
		const row = await getMaintenanceInWorkspace({
			tx,
			id: input.maintenanceId,
			workspaceId: ctx.workspace.id
		});
		const from = input.from ? new Date(input.from) : row.from;
		const to = input.to ? new Date(input.to) : row.to;
		// Only one end may have been sent: check the merged window too.
		if (to <= from) {
			const message = 'End date must be after start date.';
			throw new ValidationError(`to: ${message}`, [{ path: 'to', message }]);
		}
		const componentIds = input.pageComponentIds && [...new Set(input.pageComponentIds)];
		if (componentIds) await checkComponentsOnPage(tx, row.pageId, componentIds);
		await markPageChanged(tx, row.pageId);
		await tx.maintenance.update({
			where: { id: row.id },
			data: {
				title: input.title,
				message: input.message,
				from,
				to,
				components: componentIds && {
					deleteMany: {},
					create: componentIds.map((componentId) => ({ componentId }))
				}
			}
		});
		const after = toMaintenanceOutput(
			await getMaintenanceInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'maintenance.update',
			entityType: 'maintenance',
			entityId: row.id,
			before: toMaintenanceOutput(row),
			after
		});
		return after;
	});
}
