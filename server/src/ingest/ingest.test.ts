import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Upstate } from '../app.ts';
import type { Db } from '../db/client.ts';
import { createTestDb } from '../../test/db.ts';
import { createWorkspace, ctxFor } from '../../test/factories.ts';
import { createTestUpstate } from '../../test/upstate.ts';
import { createMonitor } from '../domain/monitor/index.ts';
import {
	checkPrivateLocationHealth,
	createPrivateLocation
} from '../domain/private-location/index.ts';
import { createMailer } from '../mail/index.ts';
import { CheckResultSchema, IngestService } from '@upstate/proto/ingest';
import { createIngestHandler } from './index.ts';

let db: Db;
let upstate: Upstate;
let server: http.Server;
let url: string;
let seq = 0;

beforeAll(async () => {
	({ db } = await createTestDb());
	upstate = createTestUpstate(db);
	// No workflows app listens here: status forwards fail and are logged, which is not the point.
	upstate.config.urls.workflows = 'http://127.0.0.1:9';
	server = http.createServer(createIngestHandler({ upstate }));
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
	() =>
		new Promise<void>((r) => {
			server.closeAllConnections();
			server.close(() => r());
		})
);

async function setup(opts: { periodicity?: '1m' | '1h'; assign?: boolean } = {}) {
	const ws = await createWorkspace(db);
	const ctx = ctxFor(db, ws);
	const monitor = await createMonitor({
		ctx,
		input: {
			type: 'http',
			name: 'api',
			periodicity: opts.periodicity ?? '1m',
			active: true,
			url: 'https://example.test/'
		}
	});
	const location = await createPrivateLocation({
		ctx,
		input: { name: 'Rack', monitor_ids: opts.assign === false ? [] : [monitor.id] }
	});
	const client: Client<typeof IngestService> = createClient(
		IngestService,
		createConnectTransport({
			baseUrl: url,
			httpVersion: '1.1',
			interceptors: [
				(next) => (req) => {
					req.header.set('authorization', `Bearer ${location.token}`);
					return next(req);
				}
			]
		})
	);
	return { ws, ctx, monitor, location, client };
}

function result(
	monitorId: number,
	over: { error?: string; headers?: Record<string, string>; outcome?: string } = {}
) {
	return create(CheckResultSchema, {
		resultId: `r-${Date.now()}-${seq++}-abcdef`,
		monitorId,
		startedAtMs: Date.now(),
		latencyMs: 12,
		outcome: over.outcome ?? 'success',
		attempts: 1,
		statusCode: 200,
		error: over.error ?? '',
		headers: over.headers ?? { 'content-type': 'text/html' },
		assertionsJson: '[]',
		grpcStatus: ''
	});
}

// The ingest server logs each batch; keep the test output to what a test asserts on.
async function quietly<T>(fn: (warnings: () => string) => Promise<T>): Promise<T> {
	const log = vi.spyOn(console, 'log').mockImplementation(() => {});
	const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
	const error = vi.spyOn(console, 'error').mockImplementation(() => {});
	try {
		return await fn(() => warn.mock.calls.flat().join('\n'));
	} finally {
		log.mockRestore();
		warn.mockRestore();
		error.mockRestore();
	}
}

describe('ingest: one bad result never blocks its batch', () => {
	it('stores an over-long header value and error cut, keeps the valid results, and acknowledges', async () => {
		const { monitor, location, client } = await setup();
		const good = result(monitor.id);
		const longHeader = result(monitor.id, { headers: { 'set-cookie': 'x'.repeat(5000) } });
		const longError = result(monitor.id, { outcome: 'error', error: 'e'.repeat(3000) });
		await quietly(async (warnings) => {
			const res = await client.ingestResults({ results: [good, longHeader, longError] });
			expect(res).toMatchObject({ accepted: 3, duplicates: 0, rejected: 0 });
			expect(warnings()).toContain(
				`[ingest] result truncated location=${location.id} monitor=${monitor.id} result=${longHeader.resultId} fields=headers.set-cookie`
			);
			expect(warnings()).toContain(`result=${longError.resultId} fields=error`);
		});
		const header = (await upstate.analytics.getResult(longHeader.resultId))?.headers['set-cookie'];
		expect(header).toHaveLength(4096);
		expect(header?.startsWith('xxxx')).toBe(true);
		expect((await upstate.analytics.getResult(longError.resultId))?.error).toHaveLength(2000);
		expect(await upstate.analytics.getResult(good.resultId)).not.toBeNull();
		// The newest result (an error) turned the monitor to error, and ingest noted when.
		const row = await db.monitor.findUniqueOrThrow({ where: { id: monitor.id } });
		expect(row.status).toBe('error');
		expect(row.statusAt).not.toBeNull();
		// Redelivery (the probe never got the answer) stores nothing twice.
		await quietly(async () => {
			const again = await client.ingestResults({ results: [good, longHeader, longError] });
			expect(again).toMatchObject({ accepted: 0, duplicates: 3, rejected: 0 });
		});
		expect(await upstate.analytics.countResults(monitor.id)).toBe(3);
	});

	it('drops a result that cannot be repaired with a log line naming the monitor and the reason', async () => {
		const { monitor, location, client } = await setup();
		const good = result(monitor.id);
		const bad = result(monitor.id, { outcome: 'exploded' });
		await quietly(async (warnings) => {
			const res = await client.ingestResults({ results: [bad, good] });
			expect(res).toMatchObject({ accepted: 1, duplicates: 0, rejected: 1 });
			expect(warnings()).toMatch(
				new RegExp(
					`^\\[ingest\\] result dropped location=${location.id} monitor=${monitor.id} reason=".*outcome.*"$`,
					'm'
				)
			);
		});
		expect(await upstate.analytics.getResult(bad.resultId)).toBeNull();
		expect(await upstate.analytics.getResult(good.resultId)).not.toBeNull();
	});
});

describe('ingest: ListMonitors counts as a sign of life (spec 3.3)', () => {
	it('refreshes last_seen_at, so a location with only hourly monitors stays healthy', async () => {
		const { ws, location, client } = await setup({ periodicity: '1h' });
		const old = new Date(Date.now() - 20 * 60_000);
		await db.privateLocation.update({
			where: { id: location.id },
			data: { status: 'active', lastSeenAt: old }
		});
		await quietly(async () => {
			const res = await client.listMonitors({});
			expect(res.monitors).toHaveLength(1);
		});
		const row = await db.privateLocation.findUniqueOrThrow({ where: { id: location.id } });
		expect(row.lastSeenAt?.getTime()).toBeGreaterThan(old.getTime());
		const health = await quietly(() =>
			checkPrivateLocationHealth({
				ctx: ctxFor(db, ws, { type: 'system', job: 'private-location-health' }),
				mailer: createMailer({ from: 'u@test' }),
				dashboardUrl: 'http://dash.test'
			})
		);
		expect(health).toEqual({ checked: 1, toError: 0, toActive: 0 });
		expect(
			(await db.privateLocation.findUniqueOrThrow({ where: { id: location.id } })).status
		).toBe('active');
	});

	it('keeps a location with no monitors at all healthy too', async () => {
		const { location, client } = await setup({ assign: false });
		await quietly(async () => expect((await client.listMonitors({})).monitors).toEqual([]));
		const row = await db.privateLocation.findUniqueOrThrow({ where: { id: location.id } });
		expect(row.lastSeenAt).not.toBeNull();
	});
});
