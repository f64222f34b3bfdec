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

// Someone is on it. Acknowledging twice, or a resolved incident, is a CONFLICT.
export async function acknowledgeIncident(args: {
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
			where: { id: before.id, acknowledgedAt: null, resolvedAt: null },
			data: { acknowledgedAt: new Date(), acknowledgedById: actorUserId(ctx.actor) }
		});
		if (changed.count === 0)
			throw new ConflictError(
				`incident ${before.id} is already ${before.resolvedAt ? 'resolved' : 'acknowledged'}`
			);
		const after = await tx.incident.findUniqueOrThrow({
			where: { id: before.id },
			include: incidentInclude
		});
		await writeAudit({
			ctx,
			tx,
			action: 'incident.acknowledge',
			entityType: 'incident',
			entityId: before.id,
			before: toIncidentSnapshot(before),
			after: toIncidentSnapshot(after)
		});
		const [output] = await toIncidentOutputs(tx, [after]);
		return output as IncidentOutput; // safe because one row in gives one row out
	});
}
