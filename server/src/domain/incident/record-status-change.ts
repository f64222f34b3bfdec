import { Prisma } from '@prisma/client';
import type { NotifyEvent } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { enqueueDelivery } from '../delivery/index.ts';
import { getMonitorInWorkspace } from '../monitor/internal.ts';
import { parseInput } from '../parse.ts';
import { withTransaction, type Tx } from '../transaction.ts';
import { isInMaintenance } from './internal.ts';
import { StatusChangeInput, type StatusChangeOutput } from './schemas.ts';
import { markMonitorPagesChanged } from '../status-page/public/page-changes.ts';

type Kind = 'alert' | 'recovery' | 'degraded';

// A monitor-level status change forwarded by the ingest server. The rules:
// - to `error` opens an incident (once: one open incident per monitor) and sends `alert`;
// - to `active` resolves the open incident (auto-resolved) and sends `recovery`; from `degraded`
//   with no incident it also sends `recovery`, so whoever got the `degraded` notice hears it ended;
// - `active` → `degraded` sends `degraded` (no incident); `error` → `degraded` keeps the incident
//   open and sends nothing: it is resolved when the monitor is fully `active` again;
// - no change (from = to) does nothing. During maintenance of one of the monitor's status-page
//   components the incident is still recorded (`duringMaintenance`) but nothing is sent, and
//   neither is its recovery. Messages go to the outbox in the same transaction.
// With `eventId` (a status_event row) the event is marked processed in that transaction too, and
// an event already processed does nothing: its consequences happen exactly once.
export async function recordStatusChange(args: {
	ctx: ServiceContext;
	input: StatusChangeInput;
	dashboardUrl: string;
	eventId?: number;
}): Promise<StatusChangeOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(StatusChangeInput, args.input);
	const none: StatusChangeOutput = {
		action: 'none',
		incidentId: null,
		enqueued: 0,
		duringMaintenance: false
	};
	if (input.from === input.to && args.eventId === undefined) return none;
	try {
		return await withTransaction(ctx, async (tx) => {
			if (args.eventId !== undefined) {
				const claimed = await tx.statusEvent.updateMany({
					where: { id: args.eventId, workspaceId: ctx.workspace.id, processedAt: null },
					data: { processedAt: new Date() }
				});
				if (claimed.count === 0 || input.from === input.to) return none;
			}
			const monitor = await getMonitorInWorkspace({
				tx,
				id: input.monitorId,
				workspaceId: ctx.workspace.id
			});
			const at = new Date(input.at);
			const duringMaintenance = await isInMaintenance({
				tx,
				workspaceId: ctx.workspace.id,
				monitorId: monitor.id,
				at
			});
			const notify = async (kind: Kind, incidentId: number | null, key: string) =>
				duringMaintenance
					? 0
					: enqueueForChannels({
							tx,
							ctx,
							monitor,
							incidentId,
							key,
							event: {
								kind,
								monitor: {
									id: monitor.id,
									name: monitor.name,
									url: monitor.url ?? monitor.uri ?? ''
								},
								incidentId: incidentId ?? undefined,
								error: input.error || undefined,
								at: input.at,
								dashboardUrl: incidentId
									? `${args.dashboardUrl}/incidents/${incidentId}`
									: `${args.dashboardUrl}/monitors/${monitor.id}`
							}
						});
			const open = await tx.incident.findUnique({ where: { openMonitorId: monitor.id } });
			if (input.to === 'error') {
				if (open) return none;
				const failing = await tx.privateLocationMonitor.findMany({
					where: { monitorId: monitor.id, status: 'error' },
					select: { privateLocation: { select: { name: true } } },
					orderBy: { privateLocationId: 'asc' }
				});
				await markMonitorPagesChanged(tx, monitor.id);
				const incident = await tx.incident.create({
					data: {
						workspaceId: ctx.workspace.id,
						monitorId: monitor.id,
						openMonitorId: monitor.id,
						startedAt: at,
						errorMessage: input.error || null,
						failingRegions: JSON.stringify(failing.map((f) => f.privateLocation.name)),
						duringMaintenance
					}
				});
				await writeAudit({
					ctx,
					tx,
					action: 'incident.open',
					entityType: 'incident',
					entityId: incident.id,
					before: null,
					after: { id: incident.id, monitorId: monitor.id, duringMaintenance }
				});
				const enqueued = await notify('alert', incident.id, `incident:${incident.id}:alert`);
				return { action: 'opened', incidentId: incident.id, enqueued, duringMaintenance };
			}
			if (input.to === 'active' && open) {
				await markMonitorPagesChanged(tx, monitor.id);
				const closed = await tx.incident.updateMany({
					where: { id: open.id, resolvedAt: null },
					data: { resolvedAt: at, autoResolved: true, openMonitorId: null }
				});
				if (closed.count === 0) return none;
				await writeAudit({
					ctx,
					tx,
					action: 'incident.resolve',
					entityType: 'incident',
					entityId: open.id,
					before: { resolvedAt: null, autoResolved: false },
					after: { resolvedAt: at.toISOString(), autoResolved: true }
				});
				const quiet = duringMaintenance || open.duringMaintenance;
				const enqueued = quiet
					? 0
					: await notify('recovery', open.id, `incident:${open.id}:recovery`);
				return { action: 'resolved', incidentId: open.id, enqueued, duringMaintenance: quiet };
			}
			if (input.to === 'active' && input.from === 'degraded') {
				const enqueued = await notify(
					'recovery',
					null,
					`monitor:${monitor.id}:recovery:${input.at}`
				);
				return { action: 'recovered', incidentId: null, enqueued, duringMaintenance };
			}
			if (input.to === 'degraded' && !open) {
				const enqueued = await notify(
					'degraded',
					null,
					`monitor:${monitor.id}:degraded:${input.at}`
				);
				return { action: 'degraded', incidentId: null, enqueued, duringMaintenance };
			}
			return none;
		});
	} catch (err) {
		// Two updates raced to open an incident: the unique open_monitor_id let one through.
		if (isUniqueViolation(err)) return none;
		throw err;
	}
}

function isUniqueViolation(err: unknown): boolean {
	if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return true;
	return /UNIQUE constraint failed: incident\.open_monitor_id/.test(
		String((err as Error)?.message)
	);
}

// One outbox row per channel wired to the monitor; the key makes a repeated update a no-op.
async function enqueueForChannels(args: {
	tx: Tx;
	ctx: ServiceContext;
	monitor: { id: number };
	incidentId: number | null;
	key: string;
	event: NotifyEvent;
}): Promise<number> {
	const wired = await args.tx.notificationChannelMonitor.findMany({
		where: { monitorId: args.monitor.id, channel: { workspaceId: args.ctx.workspace.id } },
		select: { channelId: true },
		orderBy: { channelId: 'asc' }
	});
	let enqueued = 0;
	for (const { channelId } of wired) {
		const created = await enqueueDelivery(args.tx, {
			workspaceId: args.ctx.workspace.id,
			kind: 'channel',
			dedupeKey: `channel:${channelId}:${args.key}`,
			payload: { event: args.event },
			orderKey: `channel:${channelId}:monitor:${args.monitor.id}`,
			channelId,
			incidentId: args.incidentId
		});
		if (created) enqueued++;
	}
	return enqueued;
}
