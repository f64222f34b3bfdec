import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProbe } from '../../probe/src/probe.ts';
import {
	createPrivateLocation,
	updatePrivateLocation
} from '../../server/src/domain/private-location/index.ts';
import { createIngestHandler } from '../../server/src/ingest/index.ts';
import { ctxFor } from '../../server/test/factories.ts';
import { upstate } from './run.ts';
import { rest, startCliStack } from './stack.ts';

// `upstate monitors trigger` end to end: the API server, the ingest server and two real probes
// (two locations) on loopback. The probes never get the monitor from ListMonitors (they fetched
// their list before it was assigned and do not refresh again), so every check they run is one
// a trigger asked for.
let stack: Awaited<ReturnType<typeof startCliStack>>;
let me: Awaited<ReturnType<typeof stack.workspace>>;
let ingest: http.Server;
let target: http.Server;
let hits = 0;
let monitorId: number;
let locationIds: number[];
const probes: Array<ReturnType<typeof createProbe>> = [];

async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
	while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
}
const pending = async () =>
	(
		await stack.db.privateLocationMonitor.findMany({
			where: { monitorId, runRequestedAt: { not: null } }
		})
	).length;

beforeAll(async () => {
	vi.spyOn(console, 'log').mockImplementation(() => {});
	stack = await startCliStack();
	me = await stack.workspace();
	target = http.createServer((_req, res) => {
		hits++;
		res.end('ok');
	});
	await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
	ingest = http.createServer(createIngestHandler({ upstate: stack.upstate }));
	await new Promise<void>((r) => ingest.listen(0, '127.0.0.1', r));
	const ingestUrl = `http://127.0.0.1:${(ingest.address() as AddressInfo).port}`;

	const created = await upstate(
		[
			'--json',
			'monitors',
			'create',
			'--type',
			'http',
			'--name',
			'Triggered',
			'--periodicity',
			'1h',
			'--url',
			`http://127.0.0.1:${(target.address() as AddressInfo).port}/health`
		],
		{ env: me.env }
	);
	monitorId = created.json<{ id: number }>().id;
	const ctx = ctxFor(stack.db, me.ws);
	const locations = [];
	for (const name of ['Office', 'Lab']) {
		const loc = await createPrivateLocation({ ctx, input: { name } });
		const probe = createProbe({
			config: {
				key: String(loc.token), // shown on create
				ingestUrl,
				concurrency: 2,
				outboxFile: path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-')), 'outbox.jsonl')
			},
			refreshMs: 3_600_000,
			runPollMs: 20,
			flushEveryMs: 20
		});
		await probe.start();
		probes.push(probe);
		locations.push(loc);
	}
	locationIds = locations.map((l) => l.id);
	for (const loc of locations)
		await updatePrivateLocation({
			ctx,
			input: { privateLocationId: loc.id, monitor_ids: [monitorId] }
		});
});
afterAll(async () => {
	for (const p of probes) p.stop();
	ingest?.close();
	target?.close();
	await stack?.close();
	vi.restoreAllMocks();
});

describe('upstate monitors trigger', () => {
	it('refuses a paused monitor with PRECONDITION_FAILED and asks no probe', async () => {
		const r = await upstate(['monitors', 'trigger', String(monitorId)], { env: me.env });
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/PRECONDITION_FAILED .*paused: resume it/);
		const res = await fetch(`${stack.api.url}/v1/monitors/${monitorId}/trigger`, {
			method: 'POST',
			headers: { 'x-service-key': me.write }
		});
		expect(res.status).toBe(412);
		expect(await res.json()).toEqual({
			error: {
				code: 'PRECONDITION_FAILED',
				message: `monitor ${monitorId} is paused: resume it (active: true) before triggering a check`
			}
		});
		expect(await pending()).toBe(0);
		expect(hits).toBe(0);
	});

	it('runs the check once at every location and waits for the results', async () => {
		await rest(stack.api.url, me.write)('PATCH', `/v1/monitors/${monitorId}`, { active: true });
		const r = await upstate(['--json', 'monitors', 'trigger', String(monitorId), '--wait'], {
			env: me.env
		});
		expect(r.code, r.stderr).toBe(0);
		const out = r.json<{
			monitorId: number;
			locations: Array<{ privateLocationId: number; region: string }>;
			results: Array<{ privateLocationId: number; region: string; outcome: string }>;
		}>();
		expect(out.monitorId).toBe(monitorId);
		expect(out.locations.map((l) => l.region)).toEqual(['Office', 'Lab']);
		expect(out.results.map((x) => [x.privateLocationId, x.outcome])).toEqual(
			locationIds.map((id) => [id, 'success'])
		);
		expect(hits).toBe(2);
		expect(await pending()).toBe(0);

		// Again, over REST this time: each location answers once, then nothing more is pending.
		const t = await rest(stack.api.url, me.write)('POST', `/v1/monitors/${monitorId}/trigger`);
		expect(t).toMatchObject({ monitorId, locations: [{ region: 'Office' }, { region: 'Lab' }] });
		await until(() => hits === 4);
		expect(await pending()).toBe(0);
		for (const p of probes) await p.claimRuns();
		await until(async () => (await pending()) === 0);
		expect(hits).toBe(4);

		const table = await upstate(['monitors', 'trigger', String(monitorId)], { env: me.env });
		expect(table.code).toBe(0);
		expect(table.stdout).toContain(`Triggered monitor ${monitorId} at Office, Lab`);
	});

	it("refuses a read key and another workspace's key, and asks no probe", async () => {
		await until(async () => (await pending()) === 0);
		const read = await upstate(['monitors', 'trigger', String(monitorId)], { env: me.readEnv });
		expect(read.code).toBe(1);
		expect(read.stderr).toMatch(/FORBIDDEN/);
		const other = await stack.workspace();
		const foreign = await upstate(['monitors', 'trigger', String(monitorId)], { env: other.env });
		expect(foreign.code).toBe(1);
		expect(foreign.stderr).toMatch(new RegExp(`NOT_FOUND monitor ${monitorId} not found`));
		for (const [key, status] of [
			[me.read, 403],
			[other.write, 404]
		] as const) {
			const res = await fetch(`${stack.api.url}/v1/monitors/${monitorId}/trigger`, {
				method: 'POST',
				headers: { 'x-service-key': key }
			});
			expect(res.status).toBe(status);
		}
		expect(await pending()).toBe(0);
	});

	it('--wait names a location that does not answer, whose request stays pending', async () => {
		const ctx = ctxFor(stack.db, me.ws);
		const silent = await createPrivateLocation({
			ctx,
			input: { name: 'Silent', monitor_ids: [monitorId] }
		});
		const r = await upstate(
			['monitors', 'trigger', String(monitorId), '--wait', '--wait-timeout', '0'],
			{ env: me.env }
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(
			/no new result from .*Silent.* within 0s\n→ the probe there may be down/
		);
		const row = await stack.db.privateLocationMonitor.findUniqueOrThrow({
			where: { privateLocationId_monitorId: { privateLocationId: silent.id, monitorId } }
		});
		expect(row.runRequestedAt).not.toBeNull();
	});
});
