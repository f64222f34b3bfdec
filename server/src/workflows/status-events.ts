import type { Upstate } from '../app.ts';
import type { DeliveryWorker } from '../domain/delivery/index.ts';
import {
	processStatusEvents,
	pruneStatusEvents,
	type ProcessedEvent
} from '../domain/incident/index.ts';
import { toServiceCtx } from './context.ts';

// Status events the forward left behind (the workflows app or ingest crashed, a refused
// forward) are processed at start and then every `pollMs`; the newest `graceMs` are left to
// their forward, which is the fast path.
export function startStatusEventSweeper(args: {
	upstate: Upstate;
	deliveries?: DeliveryWorker;
	pollMs?: number;
	graceMs?: number;
}): { stop(): Promise<void> } {
	let running: Promise<void> | null = null;
	const sweep = (first: boolean) => {
		running ??= processEvents({
			upstate: args.upstate,
			deliveries: args.deliveries,
			source: 'sweep',
			before: first ? undefined : new Date(Date.now() - (args.graceMs ?? 2000))
		})
			.then(() => undefined)
			.catch((err: Error) =>
				console.error(`[workflows] status sweep failed error=${JSON.stringify(err.message)}`)
			)
			.finally(() => (running = null));
	};
	sweep(true);
	const timer = setInterval(() => sweep(false), args.pollMs ?? 5000);
	timer.unref();
	// Processed events past their week go once an hour.
	const prune = setInterval(() => {
		pruneStatusEvents({ db: args.upstate.db }).then(
			(deleted) => console.log(`[workflows] status-event-retention deleted=${deleted}`),
			(err: Error) =>
				console.error(
					`[workflows] status-event-retention failed error=${JSON.stringify(err.message)}`
				)
		);
	}, 3_600_000);
	prune.unref();
	return {
		async stop() {
			clearInterval(timer);
			clearInterval(prune);
			await running;
		}
	};
}

// One log line per processed event, and a kick of the delivery worker when alerts were enqueued.
export async function processEvents(args: {
	upstate: Upstate;
	deliveries?: DeliveryWorker;
	source: 'forward' | 'sweep';
	only?: { workspaceId: number; monitorId: number; upToEventId: number };
	before?: Date;
}): Promise<ProcessedEvent[]> {
	const { upstate } = args;
	const done = await processStatusEvents({
		db: upstate.db,
		ctxFor: (workspace) => toServiceCtx(upstate, workspace, 'status-update'),
		dashboardUrl: upstate.config.urls.dashboard,
		only: args.only,
		before: args.before
	});
	for (const { eventId, monitorId, workspaceId, from, to, result } of done)
		console.log(
			`[workflows] status monitor=${monitorId} workspace=${workspaceId} from=${from} to=${to} action=${result.action} incident=${result.incidentId ?? '-'} enqueued=${result.enqueued} maintenance=${result.duringMaintenance} event=${eventId} source=${args.source}`
		);
	if (done.some((d) => d.result.enqueued > 0)) args.deliveries?.kick();
	return done;
}
