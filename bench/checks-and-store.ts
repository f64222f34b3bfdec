// `npm run bench`: figures for this machine (issue 3). Prints, does not assert.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { checkHttp } from '../probe/src/checks/http.ts';
import { createEmbeddedAnalytics, type StoredResult } from '../server/src/analytics/index.ts';

const pct = (sorted: number[], p: number) =>
	sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (n: number) => n.toFixed(2);

async function latencyAccuracy(delayMs: number, runs: number): Promise<void> {
	const server = http.createServer((_req, res) => setTimeout(() => res.end('ok'), delayMs));
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	const errors: number[] = [];
	for (let i = 0; i < runs; i++) {
		const r = await checkHttp({
			id: 1,
			name: 'b',
			type: 'http',
			periodicity: '1m',
			timeout: 5000,
			degraded_at: null,
			retry: 0,
			url,
			method: 'GET',
			body: '',
			follow_redirects: true,
			headers: [],
			status_code_assertions: [],
			body_assertions: [],
			header_assertions: []
		});
		errors.push(Math.abs(r.latency - delayMs));
	}
	server.close();
	errors.sort((a, b) => a - b);
	console.log(
		`latency accuracy (http, server delay ${delayMs} ms, ${runs} checks): |reported - true| p50=${fmt(pct(errors, 50))} ms p99=${fmt(pct(errors, 99))} ms (target p99 < 2 ms)`
	);
}

async function store(total: number, monitors: number): Promise<void> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-'));
	const analytics = createEmbeddedAnalytics({ url: `file:${path.join(dir, 'analytics.db')}` });
	const now = Date.now();
	const batch = 500;
	const started = performance.now();
	for (let i = 0; i < total; i += batch) {
		const rows: StoredResult[] = Array.from({ length: Math.min(batch, total - i) }, (_, j) => ({
			resultId: randomUUID(),
			workspaceId: 1,
			monitorId: ((i + j) % monitors) + 1,
			locationId: 1,
			startedAt: now - ((i + j) % 1_209_600) * 1000,
			latency: 20 + ((i + j) % 300),
			outcome: (i + j) % 97 === 0 ? 'error' : 'success',
			statusCode: 200,
			error: '',
			timing: { connect: 1, ttfb: 10 },
			headers: {},
			assertions: '[]',
			grpcStatus: '',
			packetLoss: null
		}));
		await analytics.insertResults(rows);
		if ((i / batch) % 200 === 0) process.stdout.write(`\rinserting ${i}/${total}`);
	}
	const seconds = (performance.now() - started) / 1000;
	console.log(
		`\ringest into the embedded store: ${total} results in ${fmt(seconds)} s = ${Math.round(total / seconds)} results/s (batches of ${batch}; target >= 20,000/s)`
	);
	for (const window of [86_400_000, 14 * 86_400_000]) {
		const times: number[] = [];
		for (let k = 0; k < 20; k++) {
			const t = performance.now();
			await analytics.summary({ monitorId: (k % monitors) + 1, since: now - window });
			times.push(performance.now() - t);
		}
		times.sort((a, b) => a - b);
		console.log(
			`summary query (${window / 86_400_000}d window, ${total / monitors} results per monitor): p50=${fmt(pct(times, 50))} ms p99=${fmt(pct(times, 99))} ms (target < 20 ms; read from hourly rollups)`
		);
	}
	analytics.close();
}

console.log(
	`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`
);
await latencyAccuracy(50, 200);
await store(Number(process.env.BENCH_RESULTS ?? 1_000_000), 100);
