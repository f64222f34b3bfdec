import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMonitor } from '../../server/src/domain/monitor/index.ts';
import { createPrivateLocation } from '../../server/src/domain/private-location/index.ts';
import { createIngestHandler } from '../../server/src/ingest/index.ts';
import { createTestDb } from '../../server/test/db.ts';
import { createWorkspace, ctxFor } from '../../server/test/factories.ts';
import { createTestUpstate } from '../../server/test/upstate.ts';
import type { CheckResult, ProbeMonitor } from '../src/checks/types.ts';
import { createOtelExport, metricsUrl } from '../src/otel.ts';
import { createProbe } from '../src/probe.ts';
import { portOf } from './servers.ts';

// What a real OTLP/HTTP JSON receiver sees, flattened to one row per data point.
type Point = { name: string; unit: string; value: number; attrs: Record<string, string> };
type Received = { path: string; headers: http.IncomingHttpHeaders; points: Point[] };
type OtlpValue = { stringValue?: string; intValue?: string; doubleValue?: number };
type OtlpBody = {
	resourceMetrics: Array<{
		scopeMetrics: Array<{
			metrics: Array<{
				name: string;
				unit: string;
				gauge?: {
					dataPoints: Array<{
						asDouble?: number;
						asInt?: string;
						attributes: Array<{ key: string; value: OtlpValue }>;
					}>;
				};
			}>;
		}>;
	}>;
};

function decode(body: OtlpBody): Point[] {
	return body.resourceMetrics.flatMap((rm) =>
		rm.scopeMetrics.flatMap((sm) =>
			sm.metrics.flatMap((metric) =>
				(metric.gauge?.dataPoints ?? []).map((dp) => ({
					name: metric.name,
					unit: metric.unit,
					value: dp.asDouble ?? Number(dp.asInt),
					attrs: Object.fromEntries(
						dp.attributes.map((a) => [a.key, String(a.value.stringValue ?? a.value.intValue)])
					)
				}))
			)
		)
	);
}

async function startReceiver(status = 200) {
	const received: Received[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			let raw = Buffer.concat(chunks);
			if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
			expect(req.headers['content-type']).toBe('application/json');
			received.push({
				path: req.url ?? '',
				headers: req.headers,
				points: decode(JSON.parse(raw.toString()) as OtlpBody)
			});
			res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return { server, received, url: `http://127.0.0.1:${portOf(server)}` };
}

const until = async (cond: () => boolean, ms = 8000) => {
	const end = Date.now() + ms;
	while (!cond()) {
		if (Date.now() > end) throw new Error('timed out waiting');
		await new Promise((r) => setTimeout(r, 20));
	}
};

const common = { periodicity: '1m', timeout: 5000, degraded_at: null, retry: 0 } as const;

describe('OTLP metrics export', () => {
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	beforeAll(async () => {
		receiver = await startReceiver();
	});
	afterAll(() => receiver.server.close());

	it('sends each check as gauges with the monitor attributes and the configured headers', async () => {
		const otel = createOtelExport({ location: () => 'Office' });
		const m: ProbeMonitor = {
			...common,
			id: 7,
			name: 'Site',
			type: 'tcp',
			uri: 'db:5432',
			otel: { endpoint: receiver.url, headers: [{ key: 'x-api-key', value: 'secret-1' }] }
		};
		const result: CheckResult = {
			monitorId: 7,
			type: 'tcp',
			startedAt: Date.now(),
			latency: 42.5,
			outcome: 'degraded',
			attempts: 1,
			timing: { dns: 1.5, connect: 41 }
		};
		otel.record(m, result);
		await until(() => receiver.received.length === 1);
		const [got] = receiver.received;
		expect(got.path).toBe('/v1/metrics');
		expect(got.headers['x-api-key']).toBe('secret-1');
		const attrs = {
			'monitor.id': '7',
			'monitor.name': 'Site',
			'monitor.type': 'tcp',
			'probe.location': 'Office'
		};
		expect(got.points.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
			{ name: 'upstate.check.connect.duration', unit: 'ms', value: 41, attrs },
			{ name: 'upstate.check.dns.duration', unit: 'ms', value: 1.5, attrs },
			{ name: 'upstate.check.duration', unit: 'ms', value: 42.5, attrs },
			{ name: 'upstate.check.status', unit: '1', value: 0.5, attrs }
		]);
		await otel.shutdown();
	});

	it('sends the grpc serving gauge: 1 while SERVING, 0 otherwise; error status is 0', async () => {
		receiver.received.length = 0;
		const otel = createOtelExport({ location: () => 'Office' });
		const m: ProbeMonitor = {
			...common,
			id: 8,
			name: 'Health',
			type: 'grpc',
			uri: '127.0.0.1:1',
			service: '',
			tls: 'plaintext',
			metadata: [],
			otel: { endpoint: `${receiver.url}/custom/path`, headers: [] }
		};
		const base = { monitorId: 8, type: 'grpc' as const, startedAt: Date.now(), attempts: 1 };
		otel.record(m, {
			...base,
			latency: 3,
			outcome: 'success',
			grpcStatus: 'SERVING',
			timing: { connect: 1, ttfb: 2 }
		});
		await until(() => receiver.received.length === 1);
		otel.record(m, { ...base, latency: 4, outcome: 'error', grpcStatus: 'NOT_SERVING' });
		await until(() => receiver.received.length === 2);
		const value = (i: number, name: string) =>
			receiver.received[i].points.find((p) => p.name === name)?.value;
		expect(receiver.received[0].path).toBe('/custom/path');
		expect(value(0, 'upstate.check.grpc.serving')).toBe(1);
		expect(value(0, 'upstate.check.status')).toBe(1);
		expect(value(0, 'upstate.check.ttfb.duration')).toBe(2);
		// Each export carries only its own check, not the previous one again.
		expect(receiver.received[1].points.map((p) => p.name).sort()).toEqual([
			'upstate.check.duration',
			'upstate.check.grpc.serving',
			'upstate.check.status'
		]);
		expect(value(1, 'upstate.check.grpc.serving')).toBe(0);
		expect(value(1, 'upstate.check.status')).toBe(0);
		await otel.shutdown();
	});

	it('logs one line when an export fails, and never throws into the check', async () => {
		const refused = http.createServer();
		await new Promise<void>((r) => refused.listen(0, '127.0.0.1', r));
		const deadPort = portOf(refused);
		await new Promise<void>((r) => refused.close(() => r()));
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			const otel = createOtelExport({ location: () => 'Office', timeoutMs: 2000 });
			const m: ProbeMonitor = {
				...common,
				id: 9,
				name: 'Down collector',
				type: 'tcp',
				uri: 'db:5432',
				otel: { endpoint: `http://127.0.0.1:${deadPort}`, headers: [] }
			};
			const r: CheckResult = {
				monitorId: 9,
				type: 'tcp',
				startedAt: Date.now(),
				latency: 1,
				outcome: 'success',
				attempts: 1
			};
			expect(() => otel.record(m, r)).not.toThrow();
			await until(() => errors.mock.calls.length > 0, 15000);
			expect(errors.mock.calls).toHaveLength(1);
			expect(String(errors.mock.calls[0][0])).toMatch(
				/^\[probe\] otel export failed monitor=9 endpoint="http:\/\/127\.0\.0\.1:\d+" error="/
			);
			await otel.shutdown();
		} finally {
			errors.mockRestore();
		}
	}, 20000);

	it('rejects an endpoint that is not http(s)', () => {
		expect(() => metricsUrl('grpc://collector:4317')).toThrow(/must be http\(s\)/);
		expect(metricsUrl('https://collector:4318')).toBe('https://collector:4318/v1/metrics');
	});
});

describe('probe → OTLP endpoint of a monitor (plan with otel)', () => {
	it('exports every check of a monitor that has an endpoint, with the location name', async () => {
		const receiver = await startReceiver();
		const target = http.createServer((_req, res) => res.end('ok'));
		await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
		const { db } = await createTestDb();
		const upstate = createTestUpstate(db);
		const ctx = ctxFor(db, await createWorkspace(db));
		const monitor = await createMonitor({
			ctx,
			input: {
				type: 'http',
				name: 'Exported',
				periodicity: '1m',
				active: true,
				url: `http://127.0.0.1:${portOf(target)}/`,
				open_telemetry: {
					endpoint: `${receiver.url}/v1/metrics`,
					headers: [{ key: 'authorization', value: 'Bearer otlp-token' }]
				}
			}
		});
		const { token } = await createPrivateLocation({
			ctx,
			input: { name: 'Rack 4', monitor_ids: [monitor.id] }
		});
		const ingest = http.createServer(createIngestHandler({ upstate }));
		await new Promise<void>((r) => ingest.listen(0, '127.0.0.1', r));
		const probe = createProbe({
			config: {
				key: token,
				ingestUrl: `http://127.0.0.1:${portOf(ingest)}`,
				outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl'),
				concurrency: 10
			},
			periodOf: () => 100,
			flushEveryMs: 50
		});
		try {
			await probe.start();
			await until(() => receiver.received.length >= 2);
		} finally {
			probe.stop();
			for (const s of [ingest, target, receiver.server]) s.close();
		}
		const [first] = receiver.received;
		expect(first.headers.authorization).toBe('Bearer otlp-token');
		const byName = new Map(first.points.map((p) => [p.name, p]));
		expect(byName.get('upstate.check.status')).toMatchObject({
			value: 1,
			attrs: {
				'monitor.id': String(monitor.id),
				'monitor.name': 'Exported',
				'monitor.type': 'http',
				'probe.location': 'Rack 4'
			}
		});
		for (const name of ['duration', 'connect.duration', 'ttfb.duration', 'transfer.duration'])
			expect(byName.get(`upstate.check.${name}`)?.value).toBeGreaterThanOrEqual(0);
		expect(await upstate.analytics.countResults(monitor.id)).toBeGreaterThanOrEqual(1);
	});
});
