import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Upstate } from '../../server/src/app.ts';
import { createMonitor, triggerMonitor } from '../../server/src/domain/monitor/index.ts';
import {
	createPrivateLocation,
	updatePrivateLocation
} from '../../server/src/domain/private-location/index.ts';
import type { ServiceContext } from '../../server/src/domain/context.ts';
import { createIngestHandler } from '../../server/src/ingest/index.ts';
import { createTestDb } from '../../server/test/db.ts';
import { createWorkspace, ctxFor } from '../../server/test/factories.ts';
import { createTestUpstate } from '../../server/test/upstate.ts';
import { createProbe } from '../src/probe.ts';
import { portOf } from './servers.ts';

describe('probe scheduling', () => {
	let upstate: Upstate;
	let slow: http.Server;
	let ingest: http.Server;
	let key: string;
	let ids: number[];
	let ctx: ServiceContext;
	let inFlight = 0;
	let maxInFlight = 0;

	beforeAll(async () => {
		const { db } = await createTestDb();
		upstate = createTestUpstate(db);
		slow = http.createServer((_req, res) => {
			maxInFlight = Math.max(maxInFlight, ++inFlight);
			setTimeout(() => {
				inFlight--;
				res.end('ok');
			}, 300);
		});
		await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
		ctx = ctxFor(db, await createWorkspace(db));
		ids = [];
		for (const name of ['a', 'b', 'c'])
			ids.push(
				(
					await createMonitor({
						ctx,
						input: {
							type: 'http',
							name,
							periodicity: '1m',
							active: true,
							url: `http://127.0.0.1:${portOf(slow)}/`
						}
					})
				).id
			);
		key = (await createPrivateLocation({ ctx, input: { name: 'L', monitor_ids: ids } })).token;
		ingest = http.createServer(createIngestHandler({ upstate }));
		await new Promise<void>((r) => ingest.listen(0, '127.0.0.1', r));
	});
	afterAll(() => {
		slow.close();
		ingest.close();
	});

	it('runs checks due beyond PROBE_CONCURRENCY once a slot frees, late but not skipped', async () => {
		const logs: string[] = [];
		const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => logs.push(line));
		// A period of 7919 ms puts every monitor's first run at offset 0 (firstOffset).
		const probe = createProbe({
			config: {
				key,
				ingestUrl: `http://127.0.0.1:${portOf(ingest)}`,
				outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl'),
				concurrency: 1
			},
			periodOf: () => 7919,
			flushEveryMs: 50
		});
		try {
			await probe.start();
			const end = Date.now() + 8000;
			while (Date.now() < end) {
				const counts = await Promise.all(ids.map((id) => upstate.analytics.countResults(id)));
				if (counts.every((n) => n === 1)) break;
				await new Promise((r) => setTimeout(r, 50));
			}
		} finally {
			probe.stop();
			spy.mockRestore();
		}
		for (const id of ids) expect(await upstate.analytics.countResults(id)).toBe(1);
		const lags = logs
			.map((l) => /^\[probe\] job start monitor=\d+ .* lag=(\d+)ms$/.exec(l)?.[1])
			.filter((x) => x !== undefined)
			.map(Number)
			.sort((a, b) => a - b);
		// One at a time against a 300 ms server: the third waited for two checks.
		expect(lags).toHaveLength(3);
		expect(lags[2]).toBeGreaterThanOrEqual(500);
	});

	it('runs triggered checks beyond PROBE_CONCURRENCY once a slot frees, one at a time', async () => {
		const spy = vi.spyOn(console, 'log').mockImplementation(() => {});
		const before = await Promise.all(ids.map((id) => upstate.analytics.countResults(id)));
		// A location whose probe fetched its (empty) list before the monitors were assigned: it
		// only ever runs them because a trigger asks.
		const loc = await createPrivateLocation({ ctx, input: { name: 'T' } });
		const probe = createProbe({
			config: {
				key: loc.token,
				ingestUrl: `http://127.0.0.1:${portOf(ingest)}`,
				outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl'),
				concurrency: 1
			},
			refreshMs: 3_600_000,
			runPollMs: 20,
			flushEveryMs: 50
		});
		try {
			await probe.start();
			await updatePrivateLocation({ ctx, input: { privateLocationId: loc.id, monitor_ids: ids } });
			maxInFlight = 0;
			for (const id of ids) await triggerMonitor({ ctx, input: { monitorId: id } });
			const counts = () => Promise.all(ids.map((id) => upstate.analytics.countResults(id)));
			while ((await counts()).some((n, i) => n < before[i] + 1))
				await new Promise((r) => setTimeout(r, 50));
			expect(await counts()).toEqual(before.map((n) => n + 1));
			expect(maxInFlight).toBe(1);
		} finally {
			probe.stop();
			spy.mockRestore();
		}
	});
});
