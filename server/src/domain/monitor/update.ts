import { requireScope, type ServiceContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { parseInput } from '../parse.ts';
import type { Region } from '../regions.ts';
import { withTransaction } from '../transaction.ts';
import {
	checkMonitorPlan,
	getMonitorInWorkspace,
	rejectForeignFields,
	toMonitorData,
	toMonitorFields,
	toMonitorOutput
} from './internal.ts';
import { CreateMonitorInput, UpdateMonitorInput, type MonitorOutput } from './schemas.ts';
import { markMonitorPagesChanged } from '../status-page/public/page-changes.ts';

export async function updateMonitor(args: {
	ctx: ServiceContext;
	input: UpdateMonitorInput;
}): Promise<MonitorOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { monitorId, ...patch } = parseInput(UpdateMonitorInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getMonitorInWorkspace({ tx, id: monitorId, workspaceId: ctx.workspace.id });
		rejectForeignFields(row.type, patch);
		const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
		const stored = toMonitorFields(row);
		const merged = parseInput(CreateMonitorInput, { ...stored, ...defined });
		const storedRegions = JSON.parse(row.regions) as Region[];
		const regions = (merged.regions ?? storedRegions) as Region[];
		checkMonitorPlan(ctx.workspace.limits, merged, regions, {
			fields: parseInput(CreateMonitorInput, stored),
			regions: storedRegions
		});
		const before = toMonitorOutput(row);
		await markMonitorPagesChanged(tx, row.id);
		await tx.monitor.update({ where: { id: row.id }, data: toMonitorData(merged, regions) });
		const after = toMonitorOutput(
			await getMonitorInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'monitor.update',
			entityType: 'monitor',
			entityId: row.id,
			before,
			after
		});
		return after;
	});
}
