import { z } from 'zod';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ServiceError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getMonitorInWorkspace } from './internal.ts';
import { MonitorIdInput } from './schemas.ts';

export const TriggerMonitorOutput = z.object({
	monitorId: z.number(),
	requestedAt: z.string(),
	// Every location the monitor runs from; each one's probe runs the check once.
	locations: z.array(z.object({ privateLocationId: z.number(), region: z.string() }))
});
export type TriggerMonitorOutput = z.infer<typeof TriggerMonitorOutput>;

// "Run now": one pending request per location the monitor runs from, which that location's
// probe claims (ingest ClaimRuns) and answers with an ordinary result, whatever the interval.
// Triggering again before a probe claimed it leaves one request, not two.
export async function triggerMonitor(args: {
	ctx: ServiceContext;
	input: MonitorIdInput;
}): Promise<TriggerMonitorOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { monitorId } = parseInput(MonitorIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getMonitorInWorkspace({ tx, id: monitorId, workspaceId: ctx.workspace.id });
		if (!row.active)
			throw new ServiceError(
				'PRECONDITION_FAILED',
				`monitor ${row.id} is paused: resume it (active: true) before triggering a check`
			);
		const links = await tx.privateLocationMonitor.findMany({
			where: { monitorId: row.id },
			include: { privateLocation: { select: { name: true } } },
			orderBy: { privateLocationId: 'asc' }
		});
		if (links.length === 0)
			throw new ServiceError(
				'PRECONDITION_FAILED',
				`monitor ${row.id} runs from no location: assign it to a private location first`
			);
		const at = new Date();
		await tx.privateLocationMonitor.updateMany({
			where: { monitorId: row.id },
			data: { runRequestedAt: at }
		});
		const locations = links.map((l) => ({
			privateLocationId: l.privateLocationId,
			region: l.privateLocation.name
		}));
		await writeAudit({
			ctx,
			tx,
			action: 'monitor.trigger',
			entityType: 'monitor',
			entityId: row.id,
			before: null,
			after: { private_location_ids: locations.map((l) => l.privateLocationId) }
		});
		return { monitorId: row.id, requestedAt: at.toISOString(), locations };
	});
}
