import type { StatusChange } from '../domain/check-result/index.ts';

// Status changes go to the workflows app (spec 4.3, 6), authenticated by the bare CRON_SECRET.
// The results behind them and the change itself (status_event) are already stored: a failed
// forward is logged, never fatal; the workflows app processes the stored event on its own.
export async function forwardStatusChanges(args: {
	workflowsUrl: string;
	cronSecret: string | undefined;
	changes: StatusChange[];
}): Promise<void> {
	const url = `${args.workflowsUrl.replace(/\/$/, '')}/status-update`;
	for (const change of args.changes) {
		try {
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: args.cronSecret ?? '' },
				body: JSON.stringify({ ...change, at: change.at ?? new Date().toISOString() }),
				signal: AbortSignal.timeout(5000)
			});
			if (!res.ok)
				console.error(`[ingest] failed to forward status update to workflows ${url} ${res.status}`);
		} catch (err) {
			console.error(
				`[ingest] failed to forward status update to workflows ${url} ${(err as Error).message}`
			);
		}
	}
}
