// `npm run bench`, status site part: a 20-component page with 90 days of history served by the
// production build under 50 connections: cached, a flood of random query strings, and with the
// render cache off (STATUS_PAGE_CACHE_TTL_SECONDS=0), plus the server's peak RSS. Prints only.
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startStack, type Stack } from '../e2e/harness.ts';
import { createEmbeddedAnalytics } from '../server/src/analytics/index.ts';
import { createDb } from '../server/src/db/client.ts';
import { STATUS_PAGE_NODE_OPTIONS } from '../server/src/status-site.ts';
import { seedBenchPage } from './seed-page.ts';
import { processCpuMs as cpuMs, processRssMb as rssMb } from './stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function seed(dataDir: string): Promise<string> {
	const db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	const analytics = createEmbeddedAnalytics({ url: `file:${path.join(dataDir, 'analytics.db')}` });
	const slug = await seedBenchPage(db, analytics);
	analytics.close();
	await db.$disconnect();
	return slug;
}

async function load(stack: Stack, label: string, path: () => string): Promise<void> {
	let peak = rssMb(stack.pid);
	const cpuBefore = cpuMs(stack.pid);
	const sampler = setInterval(() => (peak = Math.max(peak, rssMb(stack.pid) || 0)), 200);
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
