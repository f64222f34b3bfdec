import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ConflictError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	actorUserId,
	getIncidentInWorkspace,
	incidentInclude,
	toIncidentOutputs,
	toIncidentSnapshot
} from './internal.ts';
import { IncidentIdInput, type IncidentOutput } from './schemas.ts';
import { markMonitorPagesChanged } from '../status-page/public/page-changes.ts';

// Resolved by hand: no notification is sent (the person resolving knows). If the monitor is
// still failing, no new incident opens until its status changes again.
export async function resolveIncident(args: {
	ctx: ServiceContext;
	input: IncidentIdInput;
}): Promise<IncidentOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { incidentId } = parseInput(IncidentIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const before = await getIncidentInWorkspace({
			tx,
			id: incidentId,
			workspaceId: ctx.workspace.id
		});
		await markMonitorPagesChanged(tx, before.monitorId);
		const changed = await tx.incident.updateMany({
			where: { id: before.id, resolvedAt: null },
			data: {
				resolvedAt: new Date(),
				resolvedById: actorUserId(ctx.actor),
				autoResolved: false,
				openMonitorId: null
			}
		});
		if (changed.count === 0) throw new ConflictError(`incident ${before.id} is already resolved`);
		const after = await tx.incident.findUniqueOrThrow({
			where: { id: before.id },
			include: incidentInclude
		});
		await writeAudit({
			ctx,
			tx,
			action: 'incident.resolve',
			entityType: 'incident',
			entityId: before.id,
			before: toIncidentSnapshot(before),
			after: toIncidentSnapshot(after)
		});
		const [output] = await toIncidentOutputs(tx, [after]);
		return output as IncidentOutput; // safe because one row in gives one row out
	});
}
