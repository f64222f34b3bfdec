import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedAnalytics, type StoredResult } from '../src/analytics/index.ts';
import type { Upstate } from '../src/app.ts';
import { getMonitorLatency, getMonitorSummary } from '../src/domain/monitor/index.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor, storedResult } from './factories.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

let upstate: Upstate;
let api: Awaited<ReturnType<typeof startApi>>;
let monitorId: number;
let ctx: ReturnType<typeof ctxFor>;

const result = (
	latency: number,
	outcome: StoredResult['outcome'],
	ago = 1000,
	locationId = 1
): StoredResult =>
	storedResult({
		workspaceId: 1,
		monitorId,
		locationId,
		startedAt: Date.now() - ago,
		latency,
		outcome
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

describe('daily status across monitors', () => {
	it('orders by day then monitor, keeps days only one monitor has, and starts at `since`', async () => {
		const store = createEmbeddedAnalytics({
			url: `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'analytics-')), 'a.db')}`
		});
		const DAY = 86_400_000;
		const today = Math.floor(Date.now() / DAY) * DAY;
		const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
		const at = (monitor: number, ms: number, outcome: StoredResult['outcome']): StoredResult => ({
			...result(10, outcome),
			monitorId: monitor,
			startedAt: ms
		});
		await store.insertResults([
			at(32, today + 1000, 'success'),
			at(32, today - 2 * DAY + 1000, 'error'),
			at(7, today + 2000, 'degraded'),
			at(7, today - DAY + 1000, 'success'),
			at(7, today - 5 * DAY, 'success') // before `since`
		]);
		expect(await store.dailyStatus({ monitorIds: [32, 7, 99], since: today - 3 * DAY })).toEqual([
			{ monitorId: 32, day: day(today - 2 * DAY), success: 0, degraded: 0, error: 1 },
			{ monitorId: 7, day: day(today - DAY), success: 1, degraded: 0, error: 0 },
			{ monitorId: 7, day: day(today), success: 0, degraded: 1, error: 0 },
			{ monitorId: 32, day: day(today), success: 1, degraded: 0, error: 0 }
		]);
		expect(await store.dailyStatus({ monitorIds: [99], since: 0 })).toEqual([]);
		store.close();
	});
});

describe('latency over time per location (from hourly rollups)', () => {
	it('gives p50-p99 per location and bucket, oldest first, and filters by location', async () => {
		const hour = 3_600_000;
		// A second location, two hours back, slower.
		const base = Math.floor(Date.now() / hour) * hour - 2 * hour;
		await upstate.analytics.insertResults(
			Array.from({ length: 10 }, (_, i) => ({
				...result(200 + i, 'success', 0, 2),
				startedAt: base + 60_000 * i
			}))
		);
		const all = await upstate.analytics.latencySeries({ monitorId, window: '1d' });
		expect(all.map((p) => p.bucket)).toEqual([...all.map((p) => p.bucket)].sort((a, b) => a - b));
		const second = all.filter((p) => p.locationId === 2);
		expect(second).toHaveLength(1);
		expect(second[0]).toMatchObject({ monitorId, bucket: base, count: 10 });
		expect(Math.abs((second[0].p50Latency as number) - 204) / 204).toBeLessThan(0.13);
		expect(second[0].p99Latency as number).toBeGreaterThanOrEqual(second[0].p50Latency as number);
		// Errors count nowhere in latency; the 3-day-old result is outside 1d and inside 7d.
		const first = all.filter((p) => p.locationId === 1);
		expect(first.reduce((n, p) => n + p.count, 0)).toBe(99 + 1);
		const only = await upstate.analytics.latencySeries({ monitorId, window: '1d', locationId: 2 });
		expect(only).toEqual(second);
		const week = await upstate.analytics.latencySeries({ monitorId, window: '7d' });
		expect(week.every((p) => p.bucket % (4 * hour) === 0)).toBe(true);
		expect(week.reduce((n, p) => n + p.count, 0)).toBe(99 + 1 + 10 + 1);
	});
});

describe('every pipe of the contract on the embedded /v0/pipes endpoint', () => {
	type Body = {
		meta: Array<{ name: string; type: string }>;
		data: Array<Record<string, unknown>>;
		rows: number;
	};
	const get = async (name: string, query: string, token = 'p.token') => {
		const res = await fetch(`${api.url}/v0/pipes/${name}.json?${query}`, {
			headers: { authorization: `Bearer ${token}` }
		});
		return { status: res.status, body: (await res.json()) as Body & { error?: string } };
	};

	it('serves the 1d, 7d and 14d metrics with Tinybird-style meta', async () => {
		// 99 recent at location 1 (one more 3 days back), 10 at location 2 two hours back.
		for (const [w, success] of [
			['1d', 109],
			['7d', 110],
			['14d', 110]
		] as const) {
			const { status, body } = await get(
				`endpoint__http_metrics_${w}__v1`,
				`monitorId=${monitorId}`
			);
			expect(status).toBe(200);
			expect(body.meta.map((m) => m.name)).toEqual([
				'monitorId',
				'success',
				'degraded',
				'error',
				'p50Latency',
				'p75Latency',
				'p90Latency',
				'p95Latency',
				'p99Latency',
				'lastPingAt'
			]);
			expect(body.meta.find((m) => m.name === 'p50Latency')?.type).toBe('Nullable(Float64)');
			expect(body.data[0]).toMatchObject({ monitorId, success });
		}
	});

	it('serves the latency series per window and location', async () => {
		const { status, body } = await get(
			'endpoint__http_latency_1d__v1',
			`monitorId=${monitorId}&locationId=2`
		);
		expect(status).toBe(200);
		expect(body.rows).toBe(1);
		expect(body.data[0]).toMatchObject({ monitorId, locationId: 2, count: 10 });
		expect(Object.keys(body.data[0])).toEqual(body.meta.map((m) => m.name));
		expect((await get('endpoint__http_latency_14d__v1', `monitorId=${monitorId}`)).status).toBe(
			200
		);
	});

	it('serves the 90-day daily status for several monitors', async () => {
		const { status, body } = await get(
			'endpoint__daily_status_90d__v1',
			`monitorIds=${monitorId},999999`
		);
		expect(status).toBe(200);
		const total = body.data.reduce(
			(n, d) => n + Number(d.success) + Number(d.degraded) + Number(d.error),
			0
		);
		expect(total).toBe(await upstate.analytics.countResults(monitorId));
		expect(body.meta.map((m) => m.name)).toEqual([
			'monitorId',
			'day',
			'success',
			'degraded',
			'error'
		]);
	});

	it('serves the response-log list, its count and one log, with JSON text columns', async () => {
		const since = Date.now() - 86_400_000;
		const list = await get(
			'endpoint__response_logs__v1',
			`monitorId=${monitorId}&since=${since}&limit=5&offset=0`
		);
		expect(list.status).toBe(200);
		expect(list.body.rows).toBe(5);
		const starts = list.body.data.map((r) => Number(r.startedAt));
		expect(starts).toEqual([...starts].sort((a, b) => b - a));
		const count = await get(
			'endpoint__response_log_count__v1',
			`monitorId=${monitorId}&since=${since}`
		);
		expect(count.body.data).toEqual([{ total: 99 + 1 + 1 + 10 }]);
		const id = String(list.body.data[0].resultId);
		const one = await get('endpoint__response_log__v1', `resultId=${id}`);
		expect(one.body.data).toEqual([list.body.data[0]]);
		expect(typeof one.body.data[0].timing).toBe('string');
		expect((await get('endpoint__response_log__v1', 'resultId=nope')).body.rows).toBe(0);
	});

	it('answers 400 for missing or malformed params and 404 for unknown pipes or tokens', async () => {
		expect(await get('endpoint__http_latency_1d__v1', '')).toMatchObject({
			status: 400,
			body: { error: expect.stringContaining('monitorId') }
		});
		expect((await get('endpoint__daily_status_90d__v1', 'monitorIds=1;2')).status).toBe(400);
		expect(
			(await get('endpoint__response_logs__v1', `monitorId=${monitorId}&since=0&limit=101`)).status
		).toBe(400);
		expect(await get('endpoint__daily_status_90d__v1', 'monitorIds=1', 'wrong')).toEqual({
			status: 404,
			body: { error: "The pipe 'endpoint__daily_status_90d__v1' does not exist" }
		});
		expect((await get('toString', 'x=1')).status).toBe(404);
	});
});

describe('monitor latency (monitor.latency, REST GET /v1/monitors/{monitorId}/latency)', () => {
	it('answers per location with ISO timestamps over REST with a read key', async () => {
		const ws = await upstate.db.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
		const key = await issueKey(upstate.db, ws, 'read');
		const res = await fetch(`${api.url}/v1/monitors/${monitorId}/latency?window=1d&locationId=2`, {
			headers: { 'x-service-key': key }
		});
		expect(res.status).toBe(200);
		const body = (await res.json()) as {
			window: string;
			stepMs: number;
			locations: Array<{ locationId: number; region: string; points: Array<{ count: number }> }>;
		};
		expect(body).toMatchObject({ monitorId, window: '1d', stepMs: 3_600_000 });
		expect(body.locations).toHaveLength(1);
		// Location 2 is not one of this workspace's private locations: named by its id.
		expect(body.locations[0]).toMatchObject({ locationId: 2, region: 'location 2' });
		expect(body.locations[0].points[0].count).toBe(10);
		const bad = await fetch(`${api.url}/v1/monitors/${monitorId}/latency?window=30d`, {
			headers: { 'x-service-key': key }
		});
		expect(bad.status).toBe(400);
	});

	it("returns NOT_FOUND for another workspace's monitor", async () => {
		const other = ctxFor(upstate.db, await createWorkspace(upstate.db));
		await expect(
			getMonitorLatency({ ctx: other, analytics: upstate.analytics, input: { monitorId } })
		).rejects.toThrow(`monitor ${monitorId} not found`);
		const ws = await upstate.db.workspace.findUniqueOrThrow({ where: { id: other.workspace.id } });
		const res = await fetch(`${api.url}/v1/monitors/${monitorId}/latency`, {
			headers: { 'x-service-key': await issueKey(upstate.db, ws, 'read') }
		});
		expect(res.status).toBe(404);
		expect(await res.json()).toEqual(errorBody.notFound(`monitor ${monitorId} not found`));
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

	it('fills daily rollups once from the hourly ones, then adds new results to them', async () => {
		const url = `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'analytics-')), 'a.db')}`;
		const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
		const old = createClient({ url });
		await old.executeMultiple(`
			CREATE TABLE check_rollup_hour (monitor_id INTEGER NOT NULL, location_id INTEGER NOT NULL,
				bucket INTEGER NOT NULL, success INTEGER NOT NULL, degraded INTEGER NOT NULL,
				error INTEGER NOT NULL, hist TEXT NOT NULL, last_at INTEGER NOT NULL,
				PRIMARY KEY (monitor_id, location_id, bucket)) WITHOUT ROWID;
			INSERT INTO check_rollup_hour VALUES (6, 1, ${hour}, 3, 1, 2, '[]', ${hour}),
				(6, 2, ${hour}, 4, 0, 0, '[]', ${hour}),
				(6, 1, ${hour - 3 * 86_400_000}, 5, 0, 1, '[]', ${hour});`);
		old.close();
		const store = createEmbeddedAnalytics({ url });
		const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
		const since = Date.now() - 90 * 86_400_000;
		expect(await store.dailyStatus({ monitorIds: [6], since })).toEqual([
			{ monitorId: 6, day: day(hour - 3 * 86_400_000), success: 5, degraded: 0, error: 1 },
			{ monitorId: 6, day: day(hour), success: 7, degraded: 1, error: 2 }
		]);
		const fresh = { ...result(5, 'error', 0), monitorId: 6, startedAt: hour };
		await store.insertResults([fresh, fresh]);
		await store.insertResults([fresh]);
		expect((await store.dailyStatus({ monitorIds: [6], since }))[1]).toMatchObject({ error: 3 });
		store.close();
	});
});
