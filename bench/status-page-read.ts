// `npm run bench`, status page read side: the in-process router calls the status site makes per
// uncached render (`getPublicGate`, then `getPublic`: page rows, 90-day analytics, uptime cells)
// for the same 20-component page with 90 days of history as bench/status-page.ts. Prints only.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedAnalytics, type StoredResult } from '../server/src/analytics/index.ts';
import { callerForSession } from '../server/src/auth/context.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createTestDb } from '../server/test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../server/test/factories.ts';
import { createTestUpstate } from '../server/test/upstate.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = 300;

const { db } = await createTestDb();
const analytics = createEmbeddedAnalytics({
	url: `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-read-')), 'a.db')}`
});
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
	for (let d = 0; d < 90; d++)
		for (let k = 0; k < 24; k++)
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
for (let i = 0; i < rows.length; i += 500) await analytics.insertResults(rows.slice(i, i + 500));

// The render cache off, as with STATUS_PAGE_CACHE_TTL_SECONDS=0: every call reads.
const upstate = { ...createTestUpstate(db, { STATUS_PAGE_CACHE_TTL_SECONDS: '0' }), analytics };
const { api } = await callerForSession({ upstate, sessionId: null });
const input = { page: { slug }, reader: { socketAddress: '127.0.0.1' } };

// Per call: wall time, and CPU time of the process (the figure that bounds req/s per core).
async function measure(label: string, call: () => Promise<unknown>): Promise<void> {
	for (let i = 0; i < WARMUP; i++) await call();
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	for (let i = 0; i < CALLS; i++) await call();
	const wallMs = (performance.now() - started) / CALLS;
	const cpu = process.cpuUsage(cpuBefore);
	const cpuMs = (cpu.user + cpu.system) / 1000 / CALLS;
	console.log(
		`status page read, ${label}: ${wallMs.toFixed(3)} ms/call wall, ${cpuMs.toFixed(3)} ms/call CPU over ${CALLS} calls`
	);
}

console.log('status page read side (in-process router calls, 20 components x 90 days, cache off)');
await measure('statusPage.getPublic (aim < 0.7 ms)', () => api.statusPage.getPublic(input));
// The status site's access decision before every render: the page lookup alone.
await measure('statusPage.getPublicGate', () => api.statusPage.getPublicGate(input));
analytics.close();
await db.$disconnect();
