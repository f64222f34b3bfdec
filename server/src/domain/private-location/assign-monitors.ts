import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireMonitorsInWorkspace } from '../monitor/internal.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getLocationInWorkspace, toLocationOutput, toLocationSnapshot } from './internal.ts';
import { AssignPrivateLocationMonitorsInput, type PrivateLocationOutput } from './schemas.ts';

// The dashboard's assignment form: it changes only the monitors it showed (`add` the checked
// ones, `remove` the unchecked ones), so monitors it did not list keep their assignment. The
// REST/MCP update keeps the spec's replace-the-list semantics.
export async function assignPrivateLocationMonitors(args: {
	ctx: ServiceContext;
	input: AssignPrivateLocationMonitorsInput;
}): Promise<PrivateLocationOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(AssignPrivateLocationMonitorsInput, args.input);
	const workspaceId = ctx.workspace.id;
	return withTransaction(ctx, async (tx) => {
		const row = await getLocationInWorkspace({ tx, id: input.privateLocationId, workspaceId });
		const add = await requireMonitorsInWorkspace(tx, { workspaceId, monitorIds: input.add });
		const remove = input.remove.filter((id) => !add.includes(id));
		const assigned = new Set(row.monitors.map((m) => m.monitorId));
		await tx.privateLocationMonitor.deleteMany({
			where: { privateLocationId: row.id, monitorId: { in: remove } }
		});
		const toAdd = add.filter((id) => !assigned.has(id));
		if (toAdd.length)
			await tx.privateLocationMonitor.createMany({
				data: toAdd.map((monitorId) => ({ privateLocationId: row.id, monitorId }))
			});
		const after = await getLocationInWorkspace({ tx, id: row.id, workspaceId });
		await writeAudit({
			ctx,
			tx,
			action: 'private_location.update',
			entityType: 'private_location',
			entityId: row.id,
			before: toLocationSnapshot(row),
			after: toLocationSnapshot(after)
		});
		return toLocationOutput(after);
	});
}
