import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Upstate } from '../../server/src/app.ts';
import {
	createMonitor,
	getMonitor,
	getMonitorStatus,
	updateMonitor
} from '../../server/src/domain/monitor/index.ts';
import { getResponseLog, listResponseLogs } from '../../server/src/domain/response-log/index.ts';
import {
	createPrivateLocation,
	updatePrivateLocation
} from '../../server/src/domain/private-location/index.ts';
import { createIngestHandler } from '../../server/src/ingest/index.ts';
import { createTestDb } from '../../server/test/db.ts';
import { createWorkspace, ctxFor } from '../../server/test/factories.ts';
import { createTestUpstate } from '../../server/test/upstate.ts';
import { IngestService } from '@upstate/proto/ingest';
import { createProbe, REFRESH_MS } from '../src/probe.ts';
import { toWireResult } from '../src/wire.ts';
import { portOf } from './servers.ts';

const probeMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

describe('probe configuration (spec 2.2)', () => {
	it('exits non-zero without SERVICE_KEY, and names SERVICE_TOKEN as the old name', () => {
		const run = (env: Record<string, string>) =>
			spawnSync(process.execPath, [probeMain], {
				env: { PATH: process.env.PATH ?? '', ...env },
				encoding: 'utf8'
			});
		const missing = run({});
		expect(missing.status).not.toBe(0);
		expect(missing.stderr).toContain('SERVICE_KEY is required');
		expect(run({ SERVICE_TOKEN: 'usp_x' }).stderr).toContain('SERVICE_TOKEN is the old name');
	});
});

describe('probe → ingest server', () => {
	let upstate: Upstate;
	let target: http.Server;
	let ingest: http.Server;
	let ingestPort: number;
	let monitorId: number;
	let key: string;

	const startIngest = (port = 0) =>
		new Promise<http.Server>((resolve) => {
			const s = http.createServer(createIngestHandler({ upstate }));
			s.listen(port, '127.0.0.1', () => resolve(s));
		});

	beforeAll(async () => {
		const { db } = await createTestDb();
		upstate = createTestUpstate(db);
		target = http.createServer((_req, res) => res.end('ok'));
		await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const monitor = await createMonitor({
			ctx,
			input: {
				type: 'http',
				name: 'Local site',
				periodicity: '1m',
				active: true,
				url: `http://127.0.0.1:${portOf(target)}/`
			}
		});
		const paused = await createMonitor({
			ctx,
			input: {
				type: 'http',
				name: 'Paused',
				periodicity: '1m',
				active: false,
				url: 'http://127.0.0.1:1/'
			}
		});
		monitorId = monitor.id;
		key = (
			await createPrivateLocation({
				ctx,
				input: { name: 'Local', monitor_ids: [monitor.id, paused.id] }
			})
		).token;
		ingest = await startIngest();
		ingestPort = portOf(ingest);
	});
	afterAll(() => {
		target.close();
		ingest.close();
	});

	const newProbe = (k = key, port = ingestPort, extra: { refreshMs?: number } = {}) =>
		createProbe({
			config: {
				key: k,
				ingestUrl: `http://127.0.0.1:${port}`,
				outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl'),
				concurrency: 10
			},
			periodOf: () => 100,
			flushEveryMs: 50,
			...extra
		});
	const until = async (cond: () => Promise<boolean>, ms = 8000) => {
		const end = Date.now() + ms;
		while (Date.now() < end) {
			if (await cond()) return;
			await new Promise((r) => setTimeout(r, 50));
		}
		throw new Error('timed out waiting');
	};

	it('runs the active assigned monitors and delivers results; the monitor turns active', async () => {
		const probe = newProbe();
		await probe.start();
		await until(async () => (await upstate.analytics.countResults(monitorId)) >= 3);
		probe.stop();
		const ctx = ctxFor(upstate.db, {
			id: (await upstate.db.monitor.findUniqueOrThrow({ where: { id: monitorId } })).workspaceId,
			plan: 'team',
			limits: '{}'
		});
		expect((await getMonitor({ ctx, input: { monitorId } })).status).toBe('active');
		const location = await upstate.db.privateLocation.findFirstOrThrow({ where: { token: key } });
		// A report refreshes last_seen_at; the status is the health cron's to change (spec 3.3).
		expect(location.status).toBe('unknown');
		expect(location.lastSeenAt).not.toBeNull();
	});

	it('answers get_monitor_status and the response logs from what the probe delivered', async () => {
		const monitor = await upstate.db.monitor.findUniqueOrThrow({
			where: { id: monitorId },
			include: { workspace: true }
		});
		const ctx = ctxFor(upstate.db, monitor.workspace);
		const status = await getMonitorStatus({ ctx, input: { monitorId } });
		expect(status).toMatchObject({
			monitorId,
			regions: [{ region: 'Local', status: 'active' }]
		});
		const logs = await listResponseLogs({
			ctx,
			analytics: upstate.analytics,
			input: { monitorId, limit: 2 }
		});
		expect(logs.data).toHaveLength(2);
		expect(logs.data[0]).toMatchObject({ region: 'Local', status: 'success', statusCode: 200 });
		expect(logs.pagination.totalSize).toBeGreaterThanOrEqual(3);
		const one = await getResponseLog({
			ctx,
			analytics: upstate.analytics,
			input: { logId: logs.data[0].id }
		});
		expect(one.timing).toMatchObject({
			connect: expect.any(Number),
			ttfb: expect.any(Number),
			transfer: expect.any(Number)
		});
		expect(one.assertions.every((a) => a.passed)).toBe(true);
		const other = ctxFor(upstate.db, await createWorkspace(upstate.db));
		await expect(
			getResponseLog({
				ctx: other,
				analytics: upstate.analytics,
				input: { logId: logs.data[0].id }
			})
		).rejects.toThrow(/not found/);
		const free = ctxFor(upstate.db, { ...monitor.workspace, limits: '{}' });
		await expect(
			listResponseLogs({ ctx: free, analytics: upstate.analytics, input: { monitorId } })
		).rejects.toThrow(/response-logs/);
	});

	it('keeps results through an ingest outage and delivers each exactly once', async () => {
		const probe = newProbe();
		await probe.start();
		const before = await upstate.analytics.countResults(monitorId);
		await new Promise<void>((r) => ingest.close(() => r()));
		ingest.closeAllConnections();
		await until(async () => probe.outbox.size >= 5);
		probe.stop();
		const produced = probe.outbox.size;
		ingest = await startIngest(ingestPort);
		await probe.flush();
		expect(probe.outbox.size).toBe(0);
		expect(await upstate.analytics.countResults(monitorId)).toBe(before + produced);
	});

	it('started before its ingest server, fetches its monitors as soon as the server is up', async () => {
		const free = await startIngest();
		const port = portOf(free);
		await new Promise<void>((r) => free.close(() => r()));
		const probe = newProbe(key, port);
		let late: http.Server | undefined;
		try {
			await probe.start(); // its first fetch fails: nothing listens on the port yet
			const before = await upstate.analytics.countResults(monitorId);
			late = await startIngest(port);
			// Far below the 5-minute refresh: only the retry after the failed first fetch gets here.
			await until(async () => (await upstate.analytics.countResults(monitorId)) > before, 15_000);
		} finally {
			probe.stop();
			late?.close();
		}
	});

	it('keeps asking for its monitors (the heartbeat), with none assigned too', async () => {
		const ctx = ctxFor(upstate.db, await createWorkspace(upstate.db));
		const idle = (await createPrivateLocation({ ctx, input: { name: 'Idle', monitor_ids: [] } }))
			.token;
		let calls = 0;
		const handler = createIngestHandler({ upstate });
		const counting = http.createServer((req, res) => {
			if (req.url?.endsWith('/ListMonitors')) calls++;
			handler(req, res);
		});
		await new Promise<void>((r) => counting.listen(0, '127.0.0.1', r));
		const probe = newProbe(idle, portOf(counting), { refreshMs: 50 });
		try {
			await probe.start();
			await until(async () => calls >= 3);
		} finally {
			probe.stop();
			counting.close();
		}
		expect(REFRESH_MS).toBeLessThanOrEqual(5 * 60_000);
	});

	it('stops a monitor paused or unassigned mid-run at its next refresh, and resumes it', async () => {
		const ctx = ctxFor(upstate.db, await createWorkspace(upstate.db));
		const url = `http://127.0.0.1:${portOf(target)}/`;
		const make = async (name: string) =>
			(
				await createMonitor({
					ctx,
					input: { type: 'http', name, periodicity: '1m', active: true, url }
				})
			).id;
		const [a, b] = [await make('A'), await make('B')];
		const location = await createPrivateLocation({
			ctx,
			input: { name: 'Mid-run', monitor_ids: [a, b] }
		});
		let fetches = 0;
		const handler = createIngestHandler({ upstate });
		const counting = http.createServer((req, res) => {
			if (req.url?.endsWith('/ListMonitors')) fetches++;
			handler(req, res);
		});
		await new Promise<void>((r) => counting.listen(0, '127.0.0.1', r));
		const starts = new Map<number, number>();
		const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => {
			const id = Number(/job start monitor=(\d+)/.exec(line)?.[1]);
			if (id) starts.set(id, (starts.get(id) ?? 0) + 1);
		});
		const ran = (id: number) => starts.get(id) ?? 0;
		// The first fetch to arrive after a change sees it; the probe fetches one at a time, so
		// once the next one arrives, the first one's monitors have been scheduled.
		const applied = async () => {
			const from = fetches;
			await until(async () => fetches >= from + 2);
		};
		// B stays assigned and active: while it runs three more times, A must not start.
		const idleWhileBRuns = async () => {
			const [fromA, fromB] = [ran(a), ran(b)];
			await until(async () => ran(b) >= fromB + 3);
			expect(ran(a)).toBe(fromA);
		};
		const probe = newProbe(location.token, portOf(counting), { refreshMs: 50 });
		try {
			await probe.start();
			await until(async () => ran(a) >= 2 && ran(b) >= 2);
			await updateMonitor({ ctx, input: { monitorId: a, active: false } });
			await applied();
			await idleWhileBRuns();
			await updateMonitor({ ctx, input: { monitorId: a, active: true } });
			const paused = ran(a);
			await until(async () => ran(a) > paused);
			await updatePrivateLocation({
				ctx,
				input: { privateLocationId: location.id, monitor_ids: [b] }
			});
			await applied();
			await idleWhileBRuns();
		} finally {
			probe.stop();
			spy.mockRestore();
			counting.close();
		}
	});

	it('ignores a redelivered result by its id', async () => {
		const client = createClient(
			IngestService,
			createConnectTransport({ baseUrl: `http://127.0.0.1:${ingestPort}`, httpVersion: '1.1' })
		);
		const result = toWireResult({
			monitorId,
			type: 'http',
			startedAt: Date.now(),
			latency: 12,
			outcome: 'success',
			attempts: 1,
			statusCode: 200,
			resultId: randomUUID()
		});
		const headers = { authorization: `Bearer ${key}` };
		expect(await client.ingestResults({ results: [result] }, { headers })).toMatchObject({
			accepted: 1,
			duplicates: 0
		});
		expect(await client.ingestResults({ results: [result] }, { headers })).toMatchObject({
			accepted: 0,
			duplicates: 1
		});
	});

	it('refuses an unknown key as unauthenticated', async () => {
		const client = createClient(
			IngestService,
			createConnectTransport({ baseUrl: `http://127.0.0.1:${ingestPort}`, httpVersion: '1.1' })
		);
		const err = await client
			.listMonitors({}, { headers: { authorization: 'Bearer usp_not-a-key' } })
			.catch((e: unknown) => e);
		expect(err).toBeInstanceOf(ConnectError);
		expect((err as ConnectError).code).toBe(Code.Unauthenticated);
	});
});
