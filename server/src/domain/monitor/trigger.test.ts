import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import type { ServiceContext } from '../context.ts';
import {
	authenticatePrivateLocation,
	claimRunRequests,
	createPrivateLocation
} from '../private-location/index.ts';
import { createMonitor, triggerMonitor, updateMonitor } from './index.ts';

// "Run now": one request per location, each claimed once by that location's probe.
let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

async function setup() {
	const ws = await createWorkspace(db);
	const ctx = ctxFor(db, ws);
	const m = await createMonitor({
		ctx,
		input: { type: 'tcp', name: 't', periodicity: '1h', uri: 'db:5432', active: true }
	});
	const probes = [];
	for (const name of ['A', 'B']) {
		const loc = await createPrivateLocation({ ctx, input: { name, monitor_ids: [m.id] } });
		const probe = await authenticatePrivateLocation({ db, key: String(loc.token) });
		if (!probe) throw new Error('a new location key must authenticate');
		probes.push(probe);
	}
	return { ws, ctx, m, probes };
}
const claimed = async (location: Parameters<typeof claimRunRequests>[0]['location']) =>
	(await claimRunRequests({ db, location })).map((x) => x.id);

describe('monitor.trigger', () => {
	it('asks every location once; triggering again before a claim is still one run', async () => {
		const { ctx, m, probes } = await setup();
		const out = await triggerMonitor({ ctx, input: { monitorId: m.id } });
		await triggerMonitor({ ctx, input: { monitorId: m.id } });
		expect(out.locations.map((l) => l.region)).toEqual(['A', 'B']);
		const [a, b] = probes;
		expect(await Promise.all([claimed(a), claimed(a)])).toEqual(
			expect.arrayContaining([[m.id], []])
		);
		expect(await claimed(a)).toEqual([]);
		expect(await claimed(b)).toEqual([m.id]);
		expect(await claimed(b)).toEqual([]);
		const audit = await db.auditLog.findFirst({
			where: { action: 'monitor.trigger', entityId: String(m.id) }
		});
		expect(audit).toMatchObject({ entityType: 'monitor', entityId: String(m.id) });
	});

	it('refuses a paused monitor, and a monitor paused after the trigger is not run', async () => {
		const { ctx, m, probes } = await setup();
		await triggerMonitor({ ctx, input: { monitorId: m.id } });
		await updateMonitor({ ctx, input: { monitorId: m.id, active: false } });
		expect(await claimed(probes[0])).toEqual([]);
		expect(await codeOf(triggerMonitor({ ctx, input: { monitorId: m.id } }))).toMatch(
			/^PRECONDITION_FAILED: /
		);
	});

	it("refuses read keys and another workspace's monitor, marking nothing", async () => {
		const { ws, m, probes } = await setup();
		const reader: ServiceContext = ctxFor(db, ws, readKey());
		expect(await codeOf(triggerMonitor({ ctx: reader, input: { monitorId: m.id } }))).toMatch(
			/^FORBIDDEN: /
		);
		const stranger = ctxFor(db, await createWorkspace(db));
		expect(await codeOf(triggerMonitor({ ctx: stranger, input: { monitorId: m.id } }))).toMatch(
			/^NOT_FOUND: /
		);
		for (const p of probes) expect(await claimed(p)).toEqual([]);
	});
});
