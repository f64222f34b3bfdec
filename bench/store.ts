// Ingest rate into the embedded analytics store, then the read paths over what was stored.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newResultId } from '../probe/src/result-id.ts';
import { createEmbeddedAnalytics, type StoredResult } from '../server/src/analytics/index.ts';
import { fmt, pct } from './stats.ts';

const DAY = 86_400_000;

// `total` results over the last 90 days, spread evenly over `monitors` monitors and time, with
// the probe's time-ordered ids, delivered in batches of 500 (the probe's batch) by `senders`
// concurrent callers, as several probes reporting at once.
export async function store(
	total: number,
	monitors: number,
	senders: number,
	create = createEmbeddedAnalytics,
	makeId: (startedAt: number) => string = newResultId
): Promise<void> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-'));
	const analytics = create({ url: `file:${path.join(dir, 'analytics.db')}` });
	const now = Date.now();
	const step = (90 * DAY) / total;
	const batch = 500;
	const cpu = process.cpuUsage();
	const started = performance.now();
	let lap = started;
	let next = 0;
	let done = 0;
	const sender = async () => {
		while (next < total) {
			const i = next;
			next += batch;
			const rows: StoredResult[] = Array.from({ length: Math.min(batch, total - i) }, (_, j) => {
				const startedAt = Math.round(now - 90 * DAY + (i + j) * step);
				return {
					resultId: makeId(startedAt),
					workspaceId: 1,
					monitorId: ((i + j) % monitors) + 1,
					locationId: 1,
					startedAt,
					latency: 20 + ((i + j) % 300),
					outcome: (i + j) % 97 === 0 ? 'error' : 'success',
					statusCode: 200,
					error: '',
					timing: { connect: 1, ttfb: 10 },
					headers: {},
					assertions: '[]',
					grpcStatus: '',
					packetLoss: null
				};
			});
			await analytics.insertResults(rows);
			done += rows.length;
			if (done % 200_000 === 0) {
				const t = performance.now();
				process.stdout.write(
					`\r  inserted ${done}/${total}, last 200,000 at ${Math.round(200_000 / ((t - lap) / 1000))}/s   `
				);
				lap = t;
			}
		}
	};
	await Promise.all(Array.from({ length: senders }, sender));
	const seconds = (performance.now() - started) / 1000;
	const used = process.cpuUsage(cpu);
	const cpuSeconds = (used.user + used.system) / 1e6;
	console.log(
		`\ringest into the embedded store: ${total} results in ${fmt(seconds)} s = ${Math.round(total / seconds)} results/s, ${fmt(cpuSeconds)} CPU s = ${Math.round(total / cpuSeconds)} results per CPU second (batches of ${batch} from ${senders} concurrent senders, ${monitors} monitors over 90 days; target >= 20,000/s)`
	);
	const timed = async (label: string, run: (k: number) => Promise<unknown>) => {
		const times: number[] = [];
		for (let k = 0; k < 20; k++) {
			const t = performance.now();
			await run(k);
			times.push(performance.now() - t);
		}
		times.sort((a, b) => a - b);
		console.log(`${label}: p50=${fmt(pct(times, 50))} ms p99=${fmt(pct(times, 99))} ms`);
	};
	const perMonitor = Math.round(total / monitors);
	for (const days of [1, 14, 90])
		await timed(
			`summary query (${days}d window, ${total} stored, ${perMonitor} per monitor; target < 20 ms)`,
			(k) => analytics.summary({ monitorId: (k % monitors) + 1, since: now - days * DAY })
		);
	for (const count of [1, 10])
		await timed(
			`90-day uptime bars (dailyStatus, ${count} monitor${count > 1 ? 's' : ''}, ${total} stored)`,
			(k) =>
				analytics.dailyStatus({
					monitorIds: Array.from({ length: count }, (_, x) => ((k + x) % monitors) + 1),
					since: now - 90 * DAY
				})
		);
	analytics.close();
}
