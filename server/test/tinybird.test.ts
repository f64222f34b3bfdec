import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredResult } from '../src/analytics/index.ts';
import type { Upstate } from '../src/app.ts';
import { getMonitorLatency, getMonitorSummary } from '../src/domain/monitor/index.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createPrivateLocation } from '../src/domain/private-location/index.ts';
import { getResponseLog } from '../src/domain/response-log/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { startFakeTinybird } from './fake-tinybird.ts';
import { createTestUpstate } from './upstate.ts';

const started = Date.UTC(2026, 10, 22, 10, 0, 0, 123);
const stored = (over: Partial<StoredResult> = {}): StoredResult => ({
	resultId: 'r-0001',
	workspaceId: 1,
	monitorId: 7,
	locationId: 3,
	startedAt: started,
	latency: 42.5,
	outcome: 'success',
	statusCode: 200,
	error: '',
	timing: { dns: 1, connect: 2, ttfb: 30 },
	headers: { 'content-type': 'text/html', authorization: '[redacted]' },
	assertions: '[{"kind":"status","description":"status eq 200","passed":true,"actual":"200"}]',
	grpcStatus: '',
	packetLoss: null,
	...over
});
// A result row as the contract's response-log pipes return it (64-bit integers quoted, as
// ClickHouse JSON may).
const row = (r: StoredResult) => ({
	...r,
	workspaceId: String(r.workspaceId),
	startedAt: String(r.startedAt),
	timing: JSON.stringify(r.timing),
	headers: JSON.stringify(r.headers)
});

let fake: Awaited<ReturnType<typeof startFakeTinybird>>;
let upstate: Upstate;
let ctx: ReturnType<typeof ctxFor>;
let monitorId: number;
let locationId: number;

beforeAll(async () => {
	const { db } = await createTestDb();
	const ws = await createWorkspace(db);
	ctx = ctxFor(db, ws);
	monitorId = (
		await createMonitor({
			ctx,
			input: { type: 'http', name: 'tb', periodicity: '1m', url: 'https://e.com' }
		})
	).id;
	await createPrivateLocation({ ctx, input: { name: 'Paris', monitor_ids: [monitorId] } });
	locationId = (await db.privateLocation.findFirstOrThrow({ where: { workspaceId: ws.id } })).id;
	const mine = stored({ resultId: 'r-mine-01', workspaceId: ws.id, monitorId, locationId });
	fake = await startFakeTinybird({
		ingestToken: 'p.append',
		readToken: 'p.read',
		pipes: {
			endpoint__http_metrics_7d__v1: [
				{
					monitorId: String(monitorId),
					success: '5',
					degraded: '1',
					error: '2',
					p50Latency: 40,
					p75Latency: 50,
					p90Latency: 60,
					p95Latency: 70,
					p99Latency: 80,
					lastPingAt: String(started)
				}
			],
			endpoint__http_latency_1d__v1: [
				{
					monitorId,
					locationId,
					bucket: started - (started % 3_600_000),
					count: 6,
					p50Latency: 40,
					p75Latency: 50,
					p90Latency: 60,
					p95Latency: 70,
					p99Latency: 80
				}
			],
			endpoint__daily_status_90d__v1: [
				{ monitorId: 7, day: '2026-11-01', success: 10, degraded: 0, error: 1 },
				{ monitorId: 8, day: '2026-11-22', success: 3, degraded: 1, error: 0 }
			],
			endpoint__response_logs__v1: [row(mine)],
			endpoint__response_log_count__v1: [{ total: '41' }],
			endpoint__response_log__v1: [row(mine)]
		}
	});
	upstate = createTestUpstate(db, {
		ANALYTICS_URL: fake.url,
		ANALYTICS_API_KEY: 'p.read',
		ANALYTICS_INGEST_TOKEN: 'p.append'
	});
});
afterAll(() => fake.close());

const last = () => fake.requests[fake.requests.length - 1];

describe('Tinybird backend (ANALYTICS_URL set)', () => {
	it('writes results to the Events API as NDJSON with the ingest token', async () => {
		fake.requests.length = 0;
		const second = stored({ resultId: 'r-0002', outcome: 'error', statusCode: null, latency: 0 });
		expect(await upstate.analytics.insertResults([stored(), second])).toEqual({
			accepted: 2,
			duplicates: 0
		});
		expect(fake.requests).toHaveLength(1);
		const req = fake.requests[0];
		expect(req).toMatchObject({
			method: 'POST',
			path: '/v0/events',
			authorization: 'Bearer p.append',
			contentType: 'application/x-ndjson',
			status: 202
		});
		expect(req.query).toEqual({ name: 'check_result', wait: 'true', from: 'ts-sdk' });
		expect(req.body).toBe(
			[
				'{"result_id":"r-0001","workspace_id":1,"monitor_id":7,"location_id":3,"started_at":"2026-11-22 10:00:00.123","latency":42.5,"outcome":"success","status_code":200,"error":"","timing":"{\\"dns\\":1,\\"connect\\":2,\\"ttfb\\":30}","headers":"{\\"content-type\\":\\"text/html\\",\\"authorization\\":\\"[redacted]\\"}","assertions":"[{\\"kind\\":\\"status\\",\\"description\\":\\"status eq 200\\",\\"passed\\":true,\\"actual\\":\\"200\\"}]","grpc_status":"","packet_loss":null}',
				'{"result_id":"r-0002","workspace_id":1,"monitor_id":7,"location_id":3,"started_at":"2026-11-22 10:00:00.123","latency":0,"outcome":"error","status_code":null,"error":"","timing":"{\\"dns\\":1,\\"connect\\":2,\\"ttfb\\":30}","headers":"{\\"content-type\\":\\"text/html\\",\\"authorization\\":\\"[redacted]\\"}","assertions":"[{\\"kind\\":\\"status\\",\\"description\\":\\"status eq 200\\",\\"passed\\":true,\\"actual\\":\\"200\\"}]","grpc_status":"","packet_loss":null}'
			].join('\n')
		);
	});

	it('reads the summary from the window pipe with the API key (get_monitor_summary)', async () => {
		const summary = await getMonitorSummary({
			ctx,
			analytics: upstate.analytics,
			input: { monitorId, window: '7d' }
		});
		expect(last()).toMatchObject({
			method: 'GET',
			path: '/v0/pipes/endpoint__http_metrics_7d__v1.json',
			authorization: 'Bearer p.read'
		});
		expect(summary).toEqual({
			monitorId,
			window: '7d',
			success: 5,
			degraded: 1,
			error: 2,
			p50Latency: 40,
			p75Latency: 50,
			p90Latency: 60,
			p95Latency: 70,
			p99Latency: 80,
			lastPingAt: new Date(started).toISOString()
		});
		expect(last().query).toEqual({ monitorId: String(monitorId), from: 'ts-sdk' });
	});

	it('reads the latency series per location, passing locationId only when given', async () => {
		const latency = await getMonitorLatency({
			ctx,
			analytics: upstate.analytics,
			input: { monitorId }
		});
		expect(last().query).toEqual({ monitorId: String(monitorId), from: 'ts-sdk' });
		expect(latency.locations).toEqual([
			{
				locationId,
				region: 'Paris',
				points: [
					{
						timestamp: '2026-11-22T10:00:00.000Z',
						count: 6,
						p50Latency: 40,
						p75Latency: 50,
						p90Latency: 60,
						p95Latency: 70,
						p99Latency: 80
					}
				]
			}
		]);
		await upstate.analytics.latencySeries({ monitorId, window: '1d', locationId });
		expect(last()).toMatchObject({
			path: '/v0/pipes/endpoint__http_latency_1d__v1.json'
		});
		expect(last().query).toEqual({
			monitorId: String(monitorId),
			locationId: String(locationId),
			from: 'ts-sdk'
		});
	});

	it('reads daily status for several monitors as one comma-separated param', async () => {
		const days = await upstate.analytics.dailyStatus({
			monitorIds: [7, 8],
			since: Date.UTC(2026, 10, 10)
		});
		expect(last()).toMatchObject({
			path: '/v0/pipes/endpoint__daily_status_90d__v1.json'
		});
		expect(last().query).toEqual({ monitorIds: '7,8', from: 'ts-sdk' });
		expect(days).toEqual([{ monitorId: 8, day: '2026-11-22', success: 3, degraded: 1, error: 0 }]);
	});

	it('lists and gets response logs through the pipes, scoped to the caller workspace', async () => {
		fake.requests.length = 0;
		const list = await upstate.analytics.listResults({
			monitorId,
			since: 1000,
			limit: 20,
			offset: 40
		});
		expect(fake.requests.map((r) => [r.path, r.query])).toEqual(
			expect.arrayContaining([
				[
					'/v0/pipes/endpoint__response_logs__v1.json',
					{
						monitorId: String(monitorId),
						since: '1000',
						limit: '20',
						offset: '40',
						from: 'ts-sdk'
					}
				],
				[
					'/v0/pipes/endpoint__response_log_count__v1.json',
					{ monitorId: String(monitorId), since: '1000', from: 'ts-sdk' }
				]
			])
		);
		expect(list.total).toBe(41);
		expect(list.rows[0]).toMatchObject({ resultId: 'r-mine-01', startedAt: started });
		const log = await getResponseLog({
			ctx,
			analytics: upstate.analytics,
			input: { logId: 'r-mine-01' }
		});
		expect(last().query).toEqual({ resultId: 'r-mine-01', from: 'ts-sdk' });
		expect(log).toMatchObject({
			id: 'r-mine-01',
			region: 'Paris',
			timing: { dns: 1, connect: 2, ttfb: 30 },
			headers: { authorization: '[redacted]' },
			assertions: [{ kind: 'status', passed: true }]
		});
		const other = ctxFor(upstate.db, await createWorkspace(upstate.db));
		await expect(
			getResponseLog({ ctx: other, analytics: upstate.analytics, input: { logId: 'r-mine-01' } })
		).rejects.toThrow('response log r-mine-01 not found');
	});

	it("passes on Tinybird's 404 for a wrong token: the pipe does not exist (spec 7.3)", async () => {
		const wrong = createTestUpstate(upstate.db, {
			ANALYTICS_URL: fake.url,
			ANALYTICS_API_KEY: 'p.other-workspace',
			ANALYTICS_INGEST_TOKEN: 'p.append'
		});
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			await expect(
				wrong.analytics.summary({ monitorId, since: Date.now() - 86_400_000 })
			).rejects.toMatchObject({
				code: 'INTERNAL',
				message:
					"analytics store unavailable (unexpected status code: 404): The pipe 'endpoint__http_metrics_1d__v1' does not exist"
			});
			expect(last()).toMatchObject({ authorization: 'Bearer p.other-workspace', status: 404 });
		} finally {
			errors.mockRestore();
		}
	});

	it('prunes by workspace and time with a delete job', async () => {
		await upstate.analytics.pruneResults({ workspaceId: 12, before: started });
		expect(last()).toMatchObject({
			method: 'POST',
			path: '/v0/datasources/check_result/delete',
			contentType: 'application/x-www-form-urlencoded',
			authorization: 'Bearer p.read'
		});
		expect(new URLSearchParams(last().body).get('delete_condition')).toBe(
			`workspace_id = 12 AND started_at < fromUnixTimestamp64Milli(${started})`
		);
	});

	it('never generates a local pipe token when Tinybird is selected', () => {
		const bare = createTestUpstate(upstate.db, { ANALYTICS_URL: fake.url });
		expect(bare.config.analytics.apiKey).toBeUndefined();
		expect(existsSync(path.join(bare.config.dataDir, '.analytics-token'))).toBe(false);
	});

	it('logs "unexpected status code: 403" and fails the write when the ingest token is wrong', async () => {
		const wrong = createTestUpstate(upstate.db, {
			ANALYTICS_URL: fake.url,
			ANALYTICS_API_KEY: 'p.read' // ANALYTICS_INGEST_TOKEN unset (spec 2.1, 7.3)
		});
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			await expect(wrong.analytics.insertResults([stored()])).rejects.toMatchObject({
				code: 'INTERNAL',
				message:
					'analytics store unavailable (unexpected status code: 403): Invalid token for datasource check_result'
			});
			expect(last()).toMatchObject({ path: '/v0/events', status: 403 });
			expect(errors.mock.calls.map((c) => String(c[0]))).toContain(
				'[analytics] tinybird datasource=check_result rows=1 unexpected status code: 403 error="Invalid token for datasource check_result"'
			);
		} finally {
			errors.mockRestore();
		}
	});
});
