import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Upstate } from '../../server/src/app.ts';
import { createMonitor } from '../../server/src/domain/monitor/index.ts';
import { createPrivateLocation } from '../../server/src/domain/private-location/index.ts';
import { createIngestHandler } from '../../server/src/ingest/index.ts';
import { createTestDb } from '../../server/test/db.ts';
import { startFakeTinybird } from '../../server/test/fake-tinybird.ts';
import { createWorkspace, ctxFor } from '../../server/test/factories.ts';
import { createTestUpstate } from '../../server/test/upstate.ts';
import { createProbe } from '../src/probe.ts';
import { portOf } from './servers.ts';

// Spec 2.1 / 7.3: with only ANALYTICS_API_KEY set, Tinybird refuses the ingest server's writes
// with 403. The ingest server logs it and does not acknowledge, so the probe keeps every result
// and delivers it once the operator sets ANALYTICS_INGEST_TOKEN and restarts the ingest server.
describe('probe → ingest → Tinybird answering 403', () => {
	let fake: Awaited<ReturnType<typeof startFakeTinybird>>;
	let target: http.Server;
	let ingest: http.Server;
	let key: string;
	let db: Upstate['db'];

	const startIngest = (upstate: Upstate, port = 0) =>
		new Promise<http.Server>((resolve) => {
			const s = http.createServer(createIngestHandler({ upstate }));
			s.listen(port, '127.0.0.1', () => resolve(s));
		});
	const stopIngest = async () => {
		await new Promise<void>((r) => {
			ingest.close(() => r());
			ingest.closeAllConnections();
		});
	};
	const until = async (cond: () => boolean, ms = 8000) => {
		const end = Date.now() + ms;
		while (!cond()) {
			if (Date.now() > end) throw new Error('timed out waiting');
			await new Promise((r) => setTimeout(r, 50));
		}
	};

	beforeAll(async () => {
		fake = await startFakeTinybird({ ingestToken: 'p.shared', readToken: 'p.shared' });
		({ db } = await createTestDb());
		target = http.createServer((_req, res) => res.end('ok'));
		await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
		const ctx = ctxFor(db, await createWorkspace(db));
		const monitor = await createMonitor({
			ctx,
			input: {
				type: 'http',
				name: 'Site',
				periodicity: '1m',
				active: true,
				url: `http://127.0.0.1:${portOf(target)}/`
			}
		});
		key = (await createPrivateLocation({ ctx, input: { name: 'Edge', monitor_ids: [monitor.id] } }))
			.token;
	});
	afterAll(async () => {
		target.close();
		await fake.close();
	});

	it('logs unexpected status code: 403, keeps the results on the probe, and delivers them all later', async () => {
		const onlyApiKey = createTestUpstate(db, {
			ANALYTICS_URL: fake.url,
			ANALYTICS_API_KEY: 'p.shared'
		});
		ingest = await startIngest(onlyApiKey);
		const port = portOf(ingest);
		const errors = vi.spyOn(console, 'error');
		const probe = createProbe({
			config: {
				key,
				ingestUrl: `http://127.0.0.1:${port}`,
				outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl'),
				concurrency: 10
			},
			periodOf: () => 100,
			flushEveryMs: 50
		});
		try {
			await probe.start();
			await until(() => fake.requests.filter((r) => r.status === 403).length >= 2);
			await until(() => probe.outbox.size >= 5);
			probe.stop();
			await new Promise((r) => setTimeout(r, 200)); // let an in-flight check land
			const logged = errors.mock.calls.map((c) => String(c[0]));
			const rows = fake.requests.find((r) => r.status === 403)?.body.split('\n').length;
			expect(logged).toContain(
				`[analytics] tinybird datasource=check_result rows=${rows} unexpected status code: 403 error="Invalid token for datasource check_result"`
			);
			expect(logged.some((l) => l.startsWith('[probe] delivery failed, keeping results'))).toBe(
				true
			);
			expect(fake.requests.every((r) => r.status === 403)).toBe(true);
			const kept = probe.outbox.peek(1000).map((r) => r.resultId);
			const refused = new Set(
				fake.requests.flatMap((r) => r.body.split('\n').map((l) => JSON.parse(l).result_id))
			);
			// Everything Tinybird refused is still on the probe.
			expect([...refused].every((id) => kept.includes(id))).toBe(true);

			// The operator sets ANALYTICS_INGEST_TOKEN and restarts the ingest server.
			await stopIngest();
			const fixed = createTestUpstate(db, {
				ANALYTICS_URL: fake.url,
				ANALYTICS_API_KEY: 'p.shared',
				ANALYTICS_INGEST_TOKEN: 'p.shared'
			});
			ingest = await startIngest(fixed, port);
			fake.requests.length = 0;
			// As the probe's flush timer would: the first attempt may meet a keep-alive socket the
			// restart closed, and never reaches the ingest server.
			for (let i = 0; i < 3 && probe.outbox.size > 0; i++) await probe.flush();
			expect(probe.outbox.size).toBe(0);
			expect(fake.requests).toHaveLength(1);
			expect(fake.requests[0]).toMatchObject({
				path: '/v0/events',
				status: 202,
				authorization: 'Bearer p.shared'
			});
			const delivered = fake.requests[0].body.split('\n').map((l) => JSON.parse(l).result_id);
			expect(delivered.sort()).toEqual([...kept].sort());
		} finally {
			probe.stop();
			errors.mockRestore();
			await stopIngest();
		}
	});
});
