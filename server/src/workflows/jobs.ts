import cron from 'node-cron';
import type { Upstate } from '../app.ts';
import { resolveLimits } from '../domain/limits.ts';

// Every scheduled job of the product, in one place. Each logs one line per run.
type Job = { name: string; schedule: string; run: (upstate: Upstate) => Promise<string> };

const MONTH_MS = 30 * 86_400_000;

export const JOBS: Job[] = [
	{
		name: 'analytics-retention',
		schedule: '17 * * * *', // hourly
		async run(upstate) {
			const workspaces = await upstate.db.workspace.findMany({
				select: { id: true, limits: true }
			});
			let deleted = 0;
			for (const w of workspaces) {
				const months = Number.parseInt(resolveLimits(w.limits)['data-retention'], 10);
				deleted += await upstate.analytics.pruneResults({
					workspaceId: w.id,
					before: Date.now() - months * MONTH_MS
				});
			}
			return `workspaces=${workspaces.length} deleted=${deleted}`;
		}
	}
];

export async function runJob(upstate: Upstate, job: Job): Promise<void> {
	const started = performance.now();
	try {
		const summary = await job.run(upstate);
		console.log(
			`[workflows] job=${job.name} done ${summary} ms=${Math.round(performance.now() - started)}`
		);
	} catch (err) {
		console.error(`[workflows] job=${job.name} failed: ${(err as Error).message}`);
	}
}

export function scheduleJobs(upstate: Upstate): { stop(): void } {
	const tasks = JOBS.map((job) => cron.schedule(job.schedule, () => void runJob(upstate, job)));
	return { stop: () => tasks.forEach((t) => void t.stop()) };
}
