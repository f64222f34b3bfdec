import { createNoopNotifier, type SubscriberNotifier } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { dispatchAfterCommit } from '../publish.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { checkComponentsOnPage } from '../status-report/internal.ts';
import { withTransaction } from '../transaction.ts';
import { getMaintenanceInWorkspace, toMaintenanceOutput } from './internal.ts';
import { CreateMaintenanceInput, type MaintenanceOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

// Schedules a window; persisted first, then dispatched (spec 4.1 rules 1-4).
export async function createMaintenance(args: {
	ctx: ServiceContext;
	input: CreateMaintenanceInput;
	notifier?: SubscriberNotifier;
}): Promise<MaintenanceOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreateMaintenanceInput, args.input);
	requireFeature(ctx.workspace.limits, 'maintenance');
	const maintenance = await withTransaction(ctx, async (tx) => {
		const page = await getStatusPageInWorkspace({
			tx,
			id: input.pageId,
			workspaceId: ctx.workspace.id
		});
		const componentIds = [...new Set(input.pageComponentIds)];
		await checkComponentsOnPage(tx, page.id, componentIds);
		await markPageChanged(tx, page.id);
		const created = await tx.maintenance.create({
			data: {
				workspaceId: ctx.workspace.id,
				pageId: page.id,
				title: input.title,
				message: input.message,
				from: new Date(input.from),
				to: new Date(input.to),
				notify: input.notify,
				components: { create: componentIds.map((componentId) => ({ componentId })) }
			},
			select: { id: true }
		});
		const out = toMaintenanceOutput(
			await getMaintenanceInWorkspace({ tx, id: created.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'maintenance.create',
			entityType: 'maintenance',
			entityId: out.id,
			before: null,
			after: out
		});
		return out;
	});
	const notifier = args.notifier ?? createNoopNotifier();
	const notified = await dispatchAfterCommit({
		ctx,
		notify: input.notify,
		send: () =>
			notifier.maintenance({
				kind: 'scheduled',
				workspaceId: ctx.workspace.id,
				pageId: maintenance.pageId,
				maintenanceId: maintenance.id,
				title: maintenance.title,
				message: maintenance.message,
				from: maintenance.from,
				to: maintenance.to,
				componentIds: maintenance.pageComponentIds
			}),
		markNotified: () =>
			ctx.db.maintenance.update({ where: { id: maintenance.id }, data: { notified: true } })
	});
	return { ...maintenance, notified };
}
