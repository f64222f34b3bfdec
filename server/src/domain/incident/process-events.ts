import type { Db } from '../../db/client.ts';
import { crashPoint } from '../../crash-point.ts';
import type { ServiceContext, WorkspaceRef } from '../context.ts';
import { ServiceError } from '../errors.ts';
import { findWorkspaceRef } from '../workspace/refs.ts';
import { recordStatusChange } from './record-status-change.ts';
import type { StatusChangeOutput } from './schemas.ts';

export type ProcessedEvent = {
	eventId: number;
	monitorId: number;
	workspaceId: number;
	from: string;
	to: string;
	result: StatusChangeOutput;
};

// Turns stored status changes (status_event, written by ingest with the status) into incidents
// and outbox rows, oldest first, each exactly once (recordStatusChange marks it in the same
// transaction). Called for one monitor up to an event by the ingest forward, and for everything
// pending by the workflows sweep (at start and every few seconds), so a lost forward or a crash
// between the status commit and the incident only delays the alert. An event of a monitor that
// failed is retried next time, and its later events wait for it (order per monitor).
export async function processStatusEvents(args: {
	db: Db;
	ctxFor: (workspace: WorkspaceRef) => ServiceContext;
	dashboardUrl: string;
	only?: { workspaceId: number; monitorId: number; upToEventId: number };
	before?: Date; // the sweep leaves the newest events to their forward
}): Promise<ProcessedEvent[]> {
	const done: ProcessedEvent[] = [];
	const stuck = new Set<number>();
	const workspaces = new Map<number, WorkspaceRef | null>();
	for (let after = 0; ;) {
		const events = await args.db.statusEvent.findMany({
			where: {
				processedAt: null,
				id: { gt: after, ...(args.only ? { lte: args.only.upToEventId } : {}) },
				...(args.only
					? { workspaceId: args.only.workspaceId, monitorId: args.only.monitorId }
					: {}),
				...(args.before ? { at: { lt: args.before } } : {})
			},
			orderBy: { id: 'asc' },
			take: 100
		});
		if (events.length === 0) return done;
		for (const event of events) {
			after = event.id;
			if (stuck.has(event.monitorId)) continue;
			if (!workspaces.has(event.workspaceId)) {
				const w = await findWorkspaceRef({ db: args.db, workspaceId: event.workspaceId });
				workspaces.set(event.workspaceId, w);
			}
			const workspace = workspaces.get(event.workspaceId);
			if (!workspace) continue; // deleted meanwhile: its events go with it (cascade)
			try {
				const result = await recordStatusChange({
					ctx: args.ctxFor(workspace),
					input: {
						monitorId: event.monitorId,
						from: event.from,
						to: event.to as 'active' | 'degraded' | 'error',
						error: event.error,
						at: event.at.toISOString()
					},
					dashboardUrl: args.dashboardUrl,
					eventId: event.id
				});
				crashPoint('after-incident-commit', result.action);
				done.push({ ...pick(event), result });
			} catch (err) {
				if (err instanceof ServiceError && err.code === 'NOT_FOUND') {
					// The monitor went away: nothing to alert about, the event is done with.
					await args.db.statusEvent.updateMany({
						where: { id: event.id, processedAt: null },
						data: { processedAt: new Date() }
					});
					continue;
				}
				stuck.add(event.monitorId);
				console.error(
					`[workflows] status event failed event=${event.id} monitor=${event.monitorId} error=${JSON.stringify((err as Error).message)}`
				);
			}
		}
	}
}

const pick = (e: {
	id: number;
	monitorId: number;
	workspaceId: number;
	from: string;
	to: string;
}) => ({
	eventId: e.id,
	monitorId: e.monitorId,
	workspaceId: e.workspaceId,
	from: e.from,
	to: e.to
});

// Processed events are kept a week (enough to look into an alert's history), then deleted.
export const STATUS_EVENT_RETENTION_MS = 7 * 86_400_000;

export async function pruneStatusEvents(args: { db: Db; now?: Date }): Promise<number> {
	const before = new Date((args.now ?? new Date()).getTime() - STATUS_EVENT_RETENTION_MS);
	const { count } = await args.db.statusEvent.deleteMany({
		where: { processedAt: { lt: before } }
	});
	return count;
}
