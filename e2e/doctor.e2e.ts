import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createPrivateLocation } from '../server/src/domain/private-location/index.ts';
import { formatFinding, runDoctor, type DoctorOptions } from '../server/src/doctor.ts';
import { startFakeTinybird } from '../server/test/fake-tinybird.ts';
import { createWorkspace, ctxFor } from '../server/test/factories.ts';
import { freePort, startSmtp, startStack, type Stack } from './harness.ts';

// `npm run doctor` against the all-in-one process: one line per check, each failure with the
// fix; analytics answers told apart on a Tinybird stand-in (spec 1.4.3, 1.4.4, 3.4).
const PIPE = 'endpoint__http_metrics_1d__v1';
let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let db: Db;
let workflowsUrl: string;
let healthy: DoctorOptions;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-doctor-'));

beforeAll(async () => {
	smtp = await startSmtp();
	const workflowsPort = await freePort();
	workflowsUrl = `http://127.0.0.1:${workflowsPort}`;
	stack = await startStack({
		DATA_DIR: dataDir,
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		WORKFLOWS_PORT: String(workflowsPort)
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	healthy = {
		databaseUrl: `file:${path.join(dataDir, 'upstate.db')}`,
		analyticsUrl: stack.urls.api,
		analyticsToken: readFileSync(path.join(dataDir, '.analytics-token'), 'utf8').trim(),
		workflowsUrl,
		cronSecret: 'e2e-cron-secret',
		smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
		statusPageUrl: stack.urls.status
	};
});

afterAll(async () => {
	await stack?.stop();
	await smtp?.close();
});

const byCheck = async (opts: DoctorOptions) =>
	Object.fromEntries((await runDoctor(opts)).map((f) => [f.check, f]));

describe('npm run doctor', () => {
	it('passes every check of a working installation, one line each', async () => {
		const first = await runDoctor(healthy);
		const lines = first.map(formatFinding);
		for (const line of lines) expect(line).not.toContain('\n');
		const found = Object.fromEntries(first.map((f) => [f.check, f]));
		// Every check but the cron's passes (the failing lines would show here).
		expect(lines.filter((l) => !l.startsWith('OK ') && !l.includes('health cron'))).toEqual([]);
		expect(Object.keys(found).sort()).toEqual(
			['analytics', 'database', 'health cron', 'mail', 'status pages', 'workflows'].sort()
		);
		expect(found.database.detail).toMatch(/reachable at file:.*, \d+ migrations applied/);
		// Just started: the 5-minute cron has not run yet, which is said, not failed...
		expect(found['health cron']).toMatchObject({ status: 'warn' });
		expect(found['health cron'].detail).toMatch(/not run yet: the workflows app started/);
		// ...and the doctor's own authenticated call ran it, so the next look finds it recent.
		expect((await byCheck(healthy))['health cron']).toMatchObject({ status: 'ok' });
		expect(lines.find((l) => l.startsWith('OK    database'))).toBeDefined();
	});

	it('names the fix for each broken part', async () => {
		const found = await byCheck({
			...healthy,
			cronSecret: 'not-the-secret',
			smtpUrl: 'smtp://127.0.0.1:1',
			statusPageUrl: `http://127.0.0.1:${await freePort()}`,
			analyticsToken: 'wrong-token'
		});
		expect(found.workflows).toMatchObject({ status: 'fail' });
		expect(found.workflows.detail).toMatch(/refuses this CRON_SECRET: use one value/);
		expect(found.mail.detail).toMatch(/refused: .*check SMTP_URL/);
		expect(found['status pages'].detail).toMatch(/cannot reach .* start the status-page service/);
		expect(found.analytics.detail).toMatch(/does not exist for this token/);
		const down = await byCheck({
			...healthy,
			workflowsUrl: `http://127.0.0.1:${await freePort()}`
		});
		expect(down.workflows.detail).toMatch(/cannot reach .*: start the workflows service/);
	});

	it('tells an unmigrated or missing database apart from an unreachable one', async () => {
		const empty = path.join(mkdtempSync(path.join(os.tmpdir(), 'upstate-doctor-')), 'x.db');
		expect((await byCheck({ ...healthy, databaseUrl: `file:${empty}` })).database.detail).toMatch(
			/no database file at .*: start Upstate once/
		);
		const bare = createDb({ url: `file:${empty}` });
		await bare.$executeRawUnsafe('CREATE TABLE t (x INTEGER)');
		await bare.$disconnect();
		expect((await byCheck({ ...healthy, databaseUrl: `file:${empty}` })).database.detail).toMatch(
			/not migrated: run db-migrate/
		);
		expect(
			(await byCheck({ ...healthy, databaseUrl: `http://127.0.0.1:${await freePort()}` })).database
				.detail
		).toMatch(/cannot reach .*: start the db service or fix DATABASE_URL/);
	});

	it("reports each private location's last report", async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const fresh = await createPrivateLocation({ ctx, input: { name: 'Office' } });
		const stale = await createPrivateLocation({ ctx, input: { name: 'Basement' } });
		await createPrivateLocation({ ctx, input: { name: 'New rack' } });
		await db.privateLocation.update({ where: { id: fresh.id }, data: { lastSeenAt: new Date() } });
		await db.privateLocation.update({
			where: { id: stale.id },
			data: { lastSeenAt: new Date(Date.now() - 2 * 3600_000) }
		});
		const found = await byCheck(healthy);
		expect(found['private location "Office"']).toMatchObject({ status: 'ok' });
		expect(found['private location "Basement"']).toMatchObject({ status: 'fail' });
		expect(found['private location "Basement"'].detail).toMatch(/last report 2 h ago: the probe/);
		expect(found['private location "New rack"'].detail).toMatch(/no probe has reported yet/);
	});

	it('tells the analytics wrong-workspace token and the Staging deployment from a missing pipe', async () => {
		const tinybird = async (opts: Parameters<typeof startFakeTinybird>[0]) => {
			const fake = await startFakeTinybird(opts);
			try {
				return (await byCheck({ ...healthy, analyticsUrl: fake.url, analyticsToken: 'read' }))
					.analytics;
			} finally {
				await fake.close();
			}
		};
		const base = { ingestToken: 'ingest', readToken: 'read' };
		expect(await tinybird({ ...base, pipes: { [PIPE]: [] } })).toMatchObject({ status: 'ok' });
		expect((await tinybird({ ...base, deployments: [] })).detail).toMatch(
			/does not exist for this token: nothing is deployed, or the token belongs to another workspace/
		);
		expect(
			(await tinybird({ ...base, deployments: [{ id: '2', status: 'data_ready', live: false }] }))
				.detail
		).toMatch(/in Staging, not Live .*promote it/);
		expect(
			(await tinybird({ ...base, deployments: [{ id: '1', status: 'data_ready', live: true }] }))
				.detail
		).toMatch(/the Live deployment has no pipe/);
		// A token of another workspace reads nothing of this one.
		expect(
			(
				await tinybird({
					...base,
					readToken: 'other',
					deployments: [{ id: '1', status: 'data_ready', live: true }]
				})
			).detail
		).toMatch(/the token belongs to another workspace/);
	});
});
