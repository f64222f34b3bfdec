import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedAnalytics, type StoredResult } from '../src/analytics/index.ts';
import type { Upstate } from '../src/app.ts';
import { getMonitorSummary } from '../src/domain/monitor/index.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, startApi } from './upstate.ts';

let upstate: Upstate;
let api: Awaited<ReturnType<typeof startApi>>;
let monitorId: number;
let ctx: ReturnType<typeof ctxFor>;

const result = (latency: number, outcome: StoredResult['outcome'], ago = 1000): StoredResult => ({
	resultId: randomUUID(),
	workspaceId: 1,
	monitorId,
	locationId: 1,
	startedAt: Date.now() - ago,
	latency,
	outcome,
	statusCode: 200,
	error: '',
	timing: {},
	headers: {},
	assertions: '[]',
	grpcStatus: '',
	packetLoss: null
});

beforeAll(async () => {
	const { db } = await createTestDb();
	upstate = createTestUpstate(db, { ANALYTICS_API_KEY: 'p.token' });
	api = await startApi(upstate);
	ctx = ctxFor(db, await createWorkspace(db));
	monitorId = (
		await createMonitor({
			ctx,
			input: { type: 'http', name: 'm', periodicity: '1m', url: 'https://e.com' }
		})
	).id;
	const rows = [
		...Array.from({ length: 98 }, (_, i) => result(i + 1, 'success')),
		result(500, 'degraded'),
		result(0, 'error'),
		result(10, 'success', 3 * 86_400_000)
	];
	await upstate.analytics.insertResults(rows);
});
afterAll(() => api.close());

describe('metrics summary and the pipes endpoint (spec 1.4.4)', () => {
	it('computes counts, percentiles (from hourly rollups, within a bucket) and lastPingAt per window', async () => {
		const day = await getMonitorSummary({
			ctx,
			analytics: upstate.analytics,
			input: { monitorId }
		});
		expect(day).toMatchObject({
			success: 98,
			degraded: 1,
			error: 1
		});
		expect(Math.abs((day.p50Latency as number) - 50) / 50).toBeLessThan(0.13);
		expect(Math.abs((day.p99Latency as number) - 500) / 500).toBeLessThan(0.13);
		expect(day.lastPingAt).not.toBeNull();
		expect(
			(
				await getMonitorSummary({
					ctx,
					analytics: upstate.analytics,
					input: { monitorId, window: '7d' }
				})
			).success
		).toBe(99);
	});

	it('counts a redelivered result once, in the raw rows and in the rollups', async () => {
		const again = result(40, 'success');
		expect(await upstate.analytics.insertResults([again, again])).toEqual({
			accepted: 1,
			duplicates: 1
		});
		expect(await upstate.analytics.insertResults([again])).toEqual({ accepted: 0, duplicates: 1 });
		const day = await getMonitorSummary({
			ctx,
			analytics: upstate.analytics,
			input: { monitorId }
		});
		expect(day.success).toBe(99);
	});

	it('answers the verification query with 200 and rows, and 404 for a wrong token or pipe', async () => {
		const get = (name: string, token: string) =>
			fetch(`${api.url}/v0/pipes/${name}.json?monitorId=${monitorId}`, {
				headers: { authorization: `Bearer ${token}` }
			});
		const ok = await get('endpoint__http_metrics_1d__v1', 'p.token');
		expect(ok.status).toBe(200);
		const body = (await ok.json()) as {
			data: Array<{ monitorId: number; success: number }>;
			rows: number;
		};
		expect(body.rows).toBe(1);
		expect(body.data[0]).toMatchObject({ monitorId, success: 99 });
		const wrong = await get('endpoint__http_metrics_1d__v1', 'other');
		expect(wrong.status).toBe(404);
		expect(await wrong.json()).toEqual({
			error: "The pipe 'endpoint__http_metrics_1d__v1' does not exist"
		});
		expect((await get('endpoint__nope__v1', 'p.token')).status).toBe(404);
	});
});

describe('daily status (uptime bars)', () => {
	it('sums results per monitor and UTC day, oldest first, only days with results', async () => {
		const days = await upstate.analytics.dailyStatus({
			monitorIds: [monitorId, 999_999],
			since: Date.now() - 90 * 86_400_000
		});
		const total = days.reduce((n, d) => n + d.success + d.degraded + d.error, 0);
		const stored = await upstate.analytics.countResults(monitorId);
		expect(total).toBe(stored);
		expect(days.every((d) => d.monitorId === monitorId)).toBe(true);
		expect(days.map((d) => d.day)).toEqual([...days.map((d) => d.day)].sort());
		const old = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
		expect(days.find((d) => d.day === old)).toMatchObject({ success: 1, degraded: 0, error: 0 });
		const recent = await upstate.analytics.dailyStatus({
			monitorIds: [monitorId],
			since: Date.now() - 2 * 86_400_000
		});
		expect(recent.reduce((n, d) => n + d.success + d.degraded + d.error, 0)).toBe(stored - 1);
	});
});

describe('concurrent deliveries (group commit)', () => {
	it('counts each result once across batches written together, and fails only a bad batch', async () => {
		const store = createEmbeddedAnalytics({
			url: `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'analytics-')), 'a.db')}`
		});
		const rows = Array.from({ length: 500 }, (_, i) => ({
			...result(10 + (i % 50), 'success', 1000 + i * 60_000),
			monitorId: 7
		}));
		// The first call opens a transaction; the next ones queue and share the following one.
		const [first, a, c] = await Promise.all([
			store.insertResults(rows.slice(0, 1)),
			store.insertResults(rows.slice(0, 300)),
			store.insertResults(rows.slice(200))
		]);
		expect(first).toEqual({ accepted: 1, duplicates: 0 });
		expect(a).toEqual({ accepted: 299, duplicates: 1 });
		expect(c).toEqual({ accepted: 200, duplicates: 100 });
		const bad = [{ ...result(5, 'success'), monitorId: 7, workspaceId: Number.NaN }];
		const good = { ...result(5, 'success'), monitorId: 8 };
		const [, failed, fine] = await Promise.allSettled([
			store.insertResults([{ ...result(5, 'success'), monitorId: 8 }]),
			store.insertResults(bad),
			store.insertResults([good])
		]);
		expect(failed.status).toBe('rejected');
		expect(fine).toEqual({ status: 'fulfilled', value: { accepted: 1, duplicates: 0 } });
		expect(await store.countResults(8)).toBe(2);
		expect(await store.countResults(7)).toBe(500);
		const s = await store.summary({ monitorId: 7, since: Date.now() - 86_400_000 });
		expect(s.success).toBe(500);
		store.close();
	});
});

describe('stores made by an earlier version', () => {
	it('rebuilds a rowid rollup table clustered, keeping its rows', async () => {
		const url = `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'analytics-')), 'a.db')}`;
		const old = createClient({ url });
		await old.executeMultiple(`
			CREATE TABLE check_rollup_hour (monitor_id INTEGER NOT NULL, location_id INTEGER NOT NULL,
				bucket INTEGER NOT NULL, success INTEGER NOT NULL, degraded INTEGER NOT NULL,
				error INTEGER NOT NULL, hist TEXT NOT NULL, last_at INTEGER NOT NULL,
				PRIMARY KEY (monitor_id, location_id, bucket));
			INSERT INTO check_rollup_hour VALUES (5, 1, ${Math.floor(Date.now() / 3_600_000) * 3_600_000}, 3, 1, 2, '[]', ${Date.now()});`);
		old.close();
		const store = createEmbeddedAnalytics({ url });
		expect(await store.summary({ monitorId: 5, since: Date.now() - 86_400_000 })).toMatchObject({
			success: 3,
			degraded: 1,
			error: 2
		});
		store.close();
		const check = createClient({ url });
		const table = await check.execute(
			"SELECT sql FROM sqlite_master WHERE name = 'check_rollup_hour'"
		);
		expect(String(table.rows[0].sql)).toMatch(/WITHOUT ROWID/);
		check.close();
	});
});
