// `npm run bench`, dashboard: server render time of the monitor list and of a monitor page for
// a workspace of 1,000 monitors with 90 days of hourly results each (2.16 M results), over HTTP
// against the production build (`npm run build` first), one request at a time. Prints only.
// BENCH_DASHBOARD_MONITORS (1000), BENCH_DASHBOARD_DAYS (90) and BENCH_DASHBOARD_EVERY_HOURS (1,
// hours between two results of a monitor) shrink it for a quicker look.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedAnalytics, type StoredResult } from '../server/src/analytics/index.ts';
import { createDb } from '../server/src/db/client.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../server/test/factories.ts';
import { startStack } from '../e2e/harness.ts';
import { fmt, pct, processCpuMs } from './stats.ts';

const MONITORS = Number(process.env.BENCH_DASHBOARD_MONITORS ?? 1000);
const DAYS = Number(process.env.BENCH_DASHBOARD_DAYS ?? 90);
const EVERY = Number(process.env.BENCH_DASHBOARD_EVERY_HOURS ?? 1);
const REQUESTS = 60;
const WARMUP = 10;
const HOUR = 3_600_000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-dashboard-'));
const stack = await startStack({ DATA_DIR: dataDir, UPSTATE_SERVICES: 'dashboard' });
const db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
const analytics = createEmbeddedAnalytics({ url: `file:${path.join(dataDir, 'analytics.db')}` });

const seeded = performance.now();
const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, monitors: MONITORS } });
const ctx = ctxFor(db, ws);
const ids: number[] = [];
for (let i = 0; i < MONITORS; i++) {
	const m = await createMonitor({
		ctx,
		input: {
			type: 'http',
			name: `Service ${i}`,
			periodicity: '1h',
			url: `https://s${i}.example.test/health`,
			active: true,
			tags: [`team-${i % 10}`, i % 2 ? 'prod' : 'staging']
		}
	});
	ids.push(m.id);
}
const now = Date.now();
let batch: StoredResult[] = [];
for (let h = DAYS * 24; h > 0; h -= EVERY)
	for (const [i, monitorId] of ids.entries()) {
		batch.push(
			storedResult({
				resultId: randomUUID(),
				workspaceId: ws.id,
				monitorId,
				startedAt: now - h * HOUR + i,
				latency: 20 + ((h * 7 + i) % 180),
				outcome: (h + i) % 97 === 0 ? 'error' : 'success'
			})
		);
		if (batch.length === 5000) {
			await analytics.insertResults(batch);
			batch = [];
		}
	}
await analytics.insertResults(batch);
const user = await db.user.create({ data: { email: 'bench@example.test' } });
await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: 'owner' } });
const session = randomUUID();
await db.session.create({
	data: { id: session, userId: user.id, workspaceId: ws.id, expiresAt: new Date(now + 86_400_000) }
});
console.log(
	`dashboard: ${MONITORS} monitors x ${DAYS} days, a result every ${EVERY} h (${Math.ceil((MONITORS * DAYS * 24) / EVERY).toLocaleString('en')} results) seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s`
);

async function measure(label: string, route: string): Promise<void> {
	const get = async () => {
		const res = await fetch(`${stack.urls.dashboard}${route}`, {
			headers: { cookie: `upstate_session=${session}` },
			redirect: 'manual'
		});
		if (res.status !== 200) throw new Error(`${route}: ${res.status}`);
		await res.text();
	};
	for (let i = 0; i < WARMUP; i++) await get();
	const times: number[] = [];
	const cpuBefore = processCpuMs(stack.pid);
	for (let i = 0; i < REQUESTS; i++) {
		const started = performance.now();
		await get();
		times.push(performance.now() - started);
	}
	const cpu = (processCpuMs(stack.pid) - cpuBefore) / REQUESTS;
	times.sort((a, b) => a - b);
	console.log(
		`${label}: p50 ${fmt(pct(times, 50))} ms, p95 ${fmt(pct(times, 95))} ms, server CPU ${fmt(cpu)} ms per request (${REQUESTS} requests)`
	);
}

const middle = ids[Math.floor(ids.length / 2)];
await measure('monitor list, page 1 of 50 rows', '/monitors');
await measure('monitor list, search + state filter', '/monitors?q=Service%201&state=active');
await measure('monitor list, tag filter (100 of 1,000)', '/monitors?tag=team-3');
await measure('monitor page (1d window)', `/monitors/${middle}`);
await measure('monitor page (14d window)', `/monitors/${middle}?window=14d`);
await measure('monitor page live poll', `/monitors/${middle}/live`);
analytics.close();
await db.$disconnect();
await stack.stop();
