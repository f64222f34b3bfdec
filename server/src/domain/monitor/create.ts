import { requireScope, type ServiceContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { requireCount } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { assignToLocal } from '../private-location/ensure-local.ts';
import { withTransaction } from '../transaction.ts';
import {
	checkMonitorPlan,
	defaultRegions,
	getMonitorInWorkspace,
	toMonitorData,
	toMonitorOutput
} from './internal.ts';
import { CreateMonitorInput, type MonitorOutput } from './schemas.ts';

export async function createMonitor(args: {
	ctx: ServiceContext;
	input: CreateMonitorInput;
}): Promise<MonitorOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreateMonitorInput, args.input);
	const regions = input.regions ?? defaultRegions(ctx);
	checkMonitorPlan(ctx.workspace.limits, input, regions);
	return withTransaction(ctx, async (tx) => {
		const count = await tx.monitor.count({ where: { workspaceId: ctx.workspace.id } });
		requireCount(ctx.workspace.limits, 'monitors', count);
		const created = await tx.monitor.create({
			data: { ...toMonitorData(input, regions), workspaceId: ctx.workspace.id }
		});
		await assignToLocal({ tx, workspaceId: ctx.workspace.id, monitorId: created.id });
		const monitor = toMonitorOutput(
			await getMonitorInWorkspace({ tx, id: created.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'monitor.create',
			entityType: 'monitor',
			entityId: monitor.id,
			before: null,
			after: monitor
		});
		return monitor;
	});
}
