// `npm run bench`, status page floor: what the uncached render could reach at best on this
// machine. A bare node:http server (no SvelteKit, no tRPC router around the page) in a child
// process answers the bench page (bench/seed-page.ts) with the uptime cells exactly as the page
// renders them (uptimeCellsHtml, 93% of its bytes) plus 15 KB standing in for the rest, gzipped
// at level 1 as the uncached status site does, under 50 connections:
// - "read + render": every request reads the page through statusPage.getPublic, as uncached;
// - "render only": the data is read once and reused, so a request is cells + gzip alone.
// Together they bound what any render path around the framework could do. Prints only.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzip } from 'node:zlib';
import autocannon from 'autocannon';
import { createEmbeddedAnalytics } from '../server/src/analytics/index.ts';
import { callerForSession } from '../server/src/auth/context.ts';
import type { PublicPageOutput } from '../server/src/domain/status-page/public/schemas.ts';
import { STATUS_PAGE_NODE_OPTIONS } from '../server/src/status-site.ts';
import { createTestDb } from '../server/test/db.ts';
import { createTestUpstate } from '../server/test/upstate.ts';
import { uptimeCellsHtml } from '../status/src/lib/uptime-cells.ts';
import { seedBenchPage } from './seed-page.ts';
import { processCpuMs as cpuMs } from './stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const REST_OF_PAGE = `<!doctype html><html lang="en">${'<div class="x">...</div>'.repeat(700)}`;

function renderCells(view: PublicPageOutput): string {
	let html = REST_OF_PAGE;
	for (const s of view.page?.sections ?? [])
		for (const c of s.kind === 'group' ? s.components : [s.component])
			html += `<h3>${c.name}</h3><ol class="ub">${c.uptime ? uptimeCellsHtml(c.uptime, 'en') : ''}</ol>`;
	return `${html}</html>`;
}

// The child: seed, then serve until killed; tells the parent its URL.
async function serve(mode: 'read' | 'fixed'): Promise<void> {
	const { db } = await createTestDb();
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-floor-'));
	const analytics = createEmbeddedAnalytics({ url: `file:${path.join(dir, 'analytics.db')}` });
	const slug = await seedBenchPage(db, analytics);
	const upstate = { ...createTestUpstate(db, { STATUS_PAGE_CACHE_TTL_SECONDS: '0' }), analytics };
	const { api } = await callerForSession({ upstate, sessionId: null });
	const input = { page: { slug }, reader: { socketAddress: '127.0.0.1' } };
	const fixed = await api.statusPage.getPublic(input);
	const server = http.createServer(async (_req, res) => {
		const view = mode === 'read' ? await api.statusPage.getPublic(input) : fixed;
		gzip(renderCells(view), { level: 1 }, (err, body) => {
			if (err) return res.writeHead(500).end();
			res.writeHead(200, {
				'content-type': 'text/html; charset=utf-8',
				'content-encoding': 'gzip',
				'content-length': body.length
			});
			res.end(body);
		});
	});
	server.listen(0, '127.0.0.1', () => {
		const { port } = server.address() as { port: number };
		process.send?.({ url: `http://127.0.0.1:${port}/`, bytes: renderCells(fixed).length });
	});
}

async function measure(mode: 'read' | 'fixed', label: string): Promise<void> {
	const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve', mode], {
		execArgv: STATUS_PAGE_NODE_OPTIONS.split(' ')
	});
	try {
		const { url, bytes } = await new Promise<{ url: string; bytes: number }>((resolve, reject) => {
			child.once('message', (m) => resolve(m as { url: string; bytes: number }));
			child.once('exit', (code) => reject(new Error(`floor server exited (${code})`)));
		});
		await autocannon({ url, connections: 10, duration: 2 });
		const pid = child.pid ?? 0;
		const before = cpuMs(pid);
		const r = await autocannon({
			url,
			connections: CONNECTIONS,
			duration: SECONDS,
			headers: { 'accept-encoding': 'gzip' }
		});
		const perRequest = (cpuMs(pid) - before) / Math.max(1, r.requests.total);
		console.log(
			`status page floor, ${label} (${Math.round(bytes / 1024)} KB HTML): ${Math.round(r.requests.average)} req/s, p50=${r.latency.p50} ms p99=${r.latency.p99} ms, server CPU ${perRequest.toFixed(2)} ms/request`
		);
	} finally {
		child.kill();
	}
}

if (process.argv[2] === 'serve') await serve(process.argv[3] === 'read' ? 'read' : 'fixed');
else {
	console.log(
		`status page floor (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores): bare node:http, no framework, 20 components x 90 days, ${CONNECTIONS} connections, ${SECONDS} s each`
	);
	await measure('read', 'every request reads (getPublic) and renders');
	await measure('fixed', 'render only (data read once)');
}
