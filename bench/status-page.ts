// `npm run bench`, status site part: a 20-component page with 90 days of history served by the
// production build under 50 connections: cached, a flood of random query strings, and with the
// render cache off (STATUS_PAGE_CACHE_TTL_SECONDS=0), plus the server's peak RSS. Prints only.
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startStack, type Stack } from '../e2e/harness.ts';
import { createEmbeddedAnalytics, type StoredResult } from '../server/src/analytics/index.ts';
import { createDb } from '../server/src/db/client.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { STATUS_PAGE_NODE_OPTIONS } from '../server/src/status-site.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../server/test/factories.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function seed(dataDir: string): Promise<string> {
	const db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	const analytics = createEmbeddedAnalytics({ url: `file:${path.join(dataDir, 'analytics.db')}` });
	const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'page-components': 50 } });
	const ctx = ctxFor(db, ws);
	const slug = `bench-${Date.now()}`;
	const page = await createStatusPage({ ctx, input: { title: 'Bench', slug } });
	const rows: StoredResult[] = [];
	for (let i = 0; i < 20; i++) {
		const m = await createMonitor({
			ctx,
			input: { type: 'http', name: `Service ${i}`, periodicity: '1m', url: 'https://e.test' }
		});
		await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'monitor', monitor_id: m.id, order: i }
		});
		for (let d = 0; d < 90; d++) {
			for (let k = 0; k < 24; k++) {
				rows.push({
					resultId: `b-${m.id}-${d}-${k}`,
					workspaceId: ws.id,
					monitorId: m.id,
					locationId: 1,
					startedAt: Date.now() - d * 86_400_000 - k * 3_600_000,
					latency: 40,
					outcome: (d * 24 + k + i) % 97 === 0 ? 'error' : 'success',
					statusCode: 200,
					error: '',
					timing: {},
					headers: {},
					assertions: '[]',
					grpcStatus: '',
					packetLoss: null
				});
			}
		}
	}
	for (let i = 0; i < rows.length; i += 500) await analytics.insertResults(rows.slice(i, i + 500));
	analytics.close();
	await db.$disconnect();
	return slug;
}

// utime + stime of the server process in ms (clock ticks are 10 ms on Linux).
const cpuMs = (pid: number) => {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
};

const rssMb = (pid: number) => {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
	return line ? Number(line[1]) / 1024 : 0;
};

async function load(stack: Stack, label: string, path: () => string): Promise<void> {
	let peak = rssMb(stack.pid);
	const cpuBefore = cpuMs(stack.pid);
	const sampler = setInterval(() => (peak = Math.max(peak, rssMb(stack.pid))), 200);
	const result = await autocannon({
		url: stack.urls.status,
		connections: CONNECTIONS,
		duration: SECONDS,
		headers: { 'accept-encoding': 'gzip' },
		requests: [{ setupRequest: (req: object) => ({ ...req, path: path() }) }]
	});
	clearInterval(sampler);
	const ok = result['2xx'];
	// CPU per request says what one free core would sustain on a shared machine.
	const perRequest = (cpuMs(stack.pid) - cpuBefore) / Math.max(1, result.requests.total);
	console.log(
		`status page ${label}: ${Math.round(result.requests.average)} req/s, p50=${result.latency.p50} ms p99=${result.latency.p99} ms, ${ok}/${result.requests.total} 2xx, server CPU ${perRequest.toFixed(2)} ms/request (~${Math.round(1000 / perRequest)} req/s per free core), RSS peak ${Math.round(peak)} MB`
	);
}

async function run(cacheTtl: string, cases: [string, (slug: string) => () => string][]) {
	const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-status-'));
	const stack = await startStack({
		DATA_DIR: dataDir,
		UPSTATE_SERVICES: 'status-page',
		STATUS_PAGE_CACHE_TTL_SECONDS: cacheTtl,
		// As the status-page container runs (docker-compose.yaml).
		NODE_OPTIONS: STATUS_PAGE_NODE_OPTIONS
	});
	try {
		const slug = await seed(dataDir);
		// Warm up (first render, module loading) and say what one page weighs on the wire.
		const wire = await new Promise<number>((resolve, reject) =>
			http
				.get(`${stack.urls.status}/${slug}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
					let bytes = 0;
					res.on('data', (c: Buffer) => (bytes += c.length));
					res.on('end', () => resolve(bytes));
				})
				.on('error', reject)
		);
		console.log(`status page HTML: ${Math.round(wire / 1024)} KB gzipped`);
		// Two seconds not counted: the first requests of a cold process run unoptimised code.
		await autocannon({ url: `${stack.urls.status}/${slug}`, connections: 10, duration: 2 });
		for (const [label, path] of cases) await load(stack, label, path(slug));
	} finally {
		await stack.stop();
	}
}

console.log(
	`status page (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores): 20 components x 90 days, ${CONNECTIONS} connections, ${SECONDS} s each (aims: cached >= 9,000 req/s p99 < 25 ms; uncached >= 1,000 req/s; RSS < 250 MB)`
);
await run('10', [
	['cached', (slug) => () => `/${slug}`],
	[
		'cached, random query strings',
		(slug) => () => `/${slug}?q=${Math.random().toString(36).slice(2)}`
	],
	['cached, Statuspage summary.json', (slug) => () => `/${slug}/api/v2/summary.json`]
]);
await run('0', [['cache off', (slug) => () => `/${slug}`]]);
