// `npm run bench`, status page read side: the in-process router calls the status site makes per
// uncached render (`getPublicGate`, then `getPublic`: page rows, 90-day analytics, uptime cells)
// for the same 20-component page with 90 days of history as bench/status-page.ts. Prints only.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedAnalytics } from '../server/src/analytics/index.ts';
import { callerForSession } from '../server/src/auth/context.ts';
import { createTestDb } from '../server/test/db.ts';
import { createTestUpstate } from '../server/test/upstate.ts';
import { seedBenchPage } from './seed-page.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = 300;

const { db } = await createTestDb();
const analytics = createEmbeddedAnalytics({
	url: `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-read-')), 'a.db')}`
});
const slug = await seedBenchPage(db, analytics);

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
