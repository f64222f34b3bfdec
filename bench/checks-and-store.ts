// `npm run bench`: figures for this machine (issue 3). Prints, does not assert.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { checkHttp } from '../probe/src/checks/http.ts';
import { probeScheduling } from './probe-scheduling.ts';
import { fmt, pct } from './stats.ts';
import { store } from './store.ts';

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

console.log(
	`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`
);
await latencyAccuracy(50, 200);
// BENCH_MONITORS= (empty) skips the scheduling runs.
for (const size of (process.env.BENCH_MONITORS ?? '1000,10000').split(',').filter(Boolean))
	await probeScheduling(Number(size), Number(process.env.BENCH_SCHEDULE_SECONDS ?? 75));
await store(
	Number(process.env.BENCH_RESULTS ?? 1_000_000),
	100,
	Number(process.env.BENCH_SENDERS ?? 4)
);
