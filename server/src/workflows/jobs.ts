import cron from 'node-cron';
import type { Upstate } from '../app.ts';
import {
	listWorkspacesWithOldDeliveries,
	pruneDeliveries,
	runDueDeliveries
} from '../domain/delivery/index.ts';
import { autoResolveIncidents, openMissedIncidents } from '../domain/incident/index.ts';
import type { WorkspaceRef } from '../domain/context.ts';
import { listWorkspaceRefs } from '../domain/workspace/index.ts';
import { notifierFor } from '../notify/index.ts';
import {
	checkPrivateLocationHealth,
	listWorkspacesWithLocations
} from '../domain/private-location/index.ts';
import { enqueueMaintenanceNotices } from '../domain/subscriber/index.ts';
import { toServiceCtx } from './context.ts';

// What a run reports: counts, logged as one `key=value` line and returned to HTTP callers.
export type JobCounts = Record<string, number>;
export type Job = { name: string; schedule: string; run: (upstate: Upstate) => Promise<JobCounts> };

const MONTH_MS = 30 * 86_400_000;

// Every scheduled job of the product, in one place; node-cron runs them in the workflows process
// and each run logs one line: `[workflows] <name> key=value ...`.
export const JOBS: Job[] = [
	{
		name: 'analytics-retention',
		schedule: '17 * * * *', // hourly
		async run(upstate) {
			const started = performance.now();
			const workspaces = await listWorkspaceRefs({ db: upstate.db });
			let deleted = 0;
			for (const w of workspaces) {
				const months = Number.parseInt(w.limits['data-retention'], 10);
				deleted += await upstate.analytics.pruneResults({
					workspaceId: w.id,
					before: Date.now() - months * MONTH_MS
				});
			}
			return {
				workspaces: workspaces.length,
				deleted,
				ms: Math.round(performance.now() - started)
			};
		}
	},
	{
		// Spec 3.3 and 8: every 5 minutes, a 15-minute window. Also `GET /cron/private-location-health`.
		name: 'private-location-health',
		schedule: '*/5 * * * *',
		async run(upstate) {
			const totals = { checked: 0, toError: 0, toActive: 0 };
			for (const workspace of await listWorkspacesWithLocations({ db: upstate.db })) {
				const counts = await checkPrivateLocationHealth({
					ctx: toServiceCtx(upstate, workspace, 'private-location-health'),
					mailer: upstate.mailer,
					dashboardUrl: upstate.config.urls.dashboard
				});
				totals.checked += counts.checked;
				totals.toError += counts.toError;
				totals.toActive += counts.toActive;
			}
			return totals;
		}
	},
	{
		// The forwards' safety net: resolves incidents whose monitor is `active` again, and opens
		// (and alerts) the missing incident of a monitor in `error`. One line for both halves.
		name: 'incident-auto-resolve',
		schedule: '*/2 * * * *',
		async run(upstate) {
			const args = {
				db: upstate.db,
				ctxFor: (workspace: WorkspaceRef) =>
					toServiceCtx(upstate, workspace, 'incident-auto-resolve'),
				dashboardUrl: upstate.config.urls.dashboard
			};
			const resolved = await autoResolveIncidents(args);
			const opened = await openMissedIncidents(args);
			return { ...resolved, ...opened, enqueued: resolved.enqueued + opened.enqueued };
		}
	},
	{
		// The outbox's safety net: the delivery worker sends at once and retries with backoff;
		// this run sends whatever is due if no worker is running (or it was down).
		name: 'notification-delivery',
		schedule: '* * * * *',
		async run(upstate) {
			return runDueDeliveries({ db: upstate.db, notifier: notifierFor(upstate) });
		}
	},
	{
		// The outbox's retention: finished deliveries (and their attempt log) go after the
		// workspace's data-retention, at least 30 days; pending/sending rows never. Also
		// `GET /cron/delivery-retention`.
		name: 'delivery-retention',
		schedule: '43 3 * * *', // daily
		async run(upstate) {
			const started = performance.now();
			const workspaces = await listWorkspacesWithOldDeliveries({ db: upstate.db });
			const totals = { workspaces: workspaces.length, deliveries: 0, attempts: 0 };
			for (const workspace of workspaces) {
				const counts = await pruneDeliveries({
					ctx: toServiceCtx(upstate, workspace, 'delivery-retention')
				});
				totals.deliveries += counts.deliveries;
				totals.attempts += counts.attempts;
			}
			return { ...totals, ms: Math.round(performance.now() - started) };
		}
	},
	{
		// Subscribers of a window created with notify hear when it starts and ends (outbox
		// rows, sent by the delivery worker); each notice is claimed once per window.
		name: 'maintenance-notices',
		schedule: '* * * * *',
		async run(upstate) {
			return enqueueMaintenanceNotices({
				db: upstate.db,
				statusPageUrl: upstate.config.urls.statusPage
			});
		}
	}
];

export function jobNamed(name: string): Job {
	const job = JOBS.find((j) => j.name === name);
	if (!job) throw new Error(`no scheduled job named ${name}`);
	return job;
}

// When each job last completed in this process (GET /healthz shows it; `npm run doctor` reads it).
export const lastRuns = new Map<string, Date>();

// Runs a job once and logs its line; null (and an error line) when it failed.
export async function runJob(upstate: Upstate, job: Job): Promise<JobCounts | null> {
	try {
		const counts = await job.run(upstate);
		lastRuns.set(job.name, new Date());
		const summary = Object.entries(counts)
			.map(([k, v]) => `${k}=${v}`)
			.join(' ');
		console.log(`[workflows] ${job.name} ${summary}`);
		return counts;
	} catch (err) {
		console.error(`[workflows] ${job.name} failed error=${JSON.stringify((err as Error).message)}`);
		return null;
	}
}

export function scheduleJobs(upstate: Upstate): { stop(): void } {
	const tasks = JOBS.map((job) =>
		cron.schedule(job.schedule, () => runJob(upstate, job), { name: job.name })
	);
	return { stop: () => tasks.forEach((t) => void t.destroy()) };
}
