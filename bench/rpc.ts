// `npm run bench`, /rpc vs REST: ListMonitors over Connect JSON (HTTP/1.1), Connect binary and
// gRPC (both h2c), against REST GET /v1/monitors, in a workspace of 1,000 monitors (first page of
// 50). The API server runs in its own process; one load loop per protocol keeps CONCURRENCY
// calls in flight for DURATION seconds. Prints req/s, p50, p99 and server CPU per call.
import { createClient } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport } from '@connectrpc/connect-node';
import { MonitorService } from '@upstate/proto';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createTestDb } from '../server/test/db.ts';
import { createWorkspace, ctxFor } from '../server/test/factories.ts';
import { issueKey } from '../server/test/upstate.ts';
import { spawnApiChild } from './api-child.ts';
import { fmt, pct, processCpuMs } from './stats.ts';

const MONITORS = 1000;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 16;

const { db, url } = await createTestDb();
const ws = await createWorkspace(db, { limits: { monitors: MONITORS, periodicity: ['1m'] } });
const ctx = ctxFor(db, ws);
for (let i = 0; i < MONITORS; i++)
	await createMonitor({
		ctx,
		input: { type: 'http', name: `m${i}`, periodicity: '1m', url: `https://m${i}.example.com` }
	});
const key = await issueKey(db, ws, 'read');
await db.$disconnect();

const { base, child } = await spawnApiChild(url);
const pid = child.pid ?? 0;

async function load(label: string, call: () => Promise<number>): Promise<void> {
	for (let i = 0; i < 200; i++) await call(); // warm-up
	const latencies: number[] = [];
	const cpuBefore = processCpuMs(pid);
	const until = performance.now() + DURATION_S * 1000;
	const started = performance.now();
	let size = 0;
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (performance.now() < until) {
				const t = performance.now();
				size = await call();
				latencies.push(performance.now() - t);
			}
		})
	);
	const seconds = (performance.now() - started) / 1000;
	const cpu = (processCpuMs(pid) - cpuBefore) / latencies.length;
	latencies.sort((a, b) => a - b);
	console.log(
		`${label.padEnd(40)} ${fmt(latencies.length / seconds).padStart(8)} req/s  p50 ${fmt(pct(latencies, 50))} ms  p99 ${fmt(pct(latencies, 99))} ms  server CPU ${fmt(cpu)} ms/call  ${size} monitors/page`
	);
}

const headers = { 'x-service-key': key };
const withKey = [
	(next: Parameters<import('@connectrpc/connect').Interceptor>[0]) =>
		(req: Parameters<typeof next>[0]) => {
			req.header.set('x-service-key', key);
			return next(req);
		}
];
const connectJson = createClient(
	MonitorService,
	createConnectTransport({ baseUrl: `${base}/rpc`, httpVersion: '1.1', interceptors: withKey })
);
const connectBinary = createClient(
	MonitorService,
	createConnectTransport({
		baseUrl: `${base}/rpc`,
		httpVersion: '2',
		useBinaryFormat: true,
		interceptors: withKey
	})
);
const grpc = createClient(
	MonitorService,
	createGrpcTransport({ baseUrl: `${base}/rpc`, interceptors: withKey })
);

console.log(
	`/rpc vs REST: list the first 50 of ${MONITORS} monitors, ${CONCURRENCY} in flight, ${DURATION_S} s each`
);
// The server child goes with this process whatever happens.
try {
	await load('REST GET /v1/monitors (HTTP/1.1)', async () => {
		const res = await fetch(`${base}/v1/monitors?perPage=50`, { headers });
		if (!res.ok) throw new Error(`REST answered ${res.status}: ${await res.text()}`);
		return ((await res.json()) as { data: unknown[] }).data.length;
	});
	await load('/rpc ListMonitors Connect JSON (1.1)', async () => {
		return (await connectJson.listMonitors({ perPage: 50 })).data.length;
	});
	await load('/rpc ListMonitors Connect binary (h2c)', async () => {
		return (await connectBinary.listMonitors({ perPage: 50 })).data.length;
	});
	await load('/rpc ListMonitors gRPC (h2c)', async () => {
		return (await grpc.listMonitors({ perPage: 50 })).data.length;
	});
} finally {
	child.kill();
}
console.log(
	`load average after: ${(await import('node:os'))
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}`
);
