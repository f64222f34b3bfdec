import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey, TEAM_LIMITS } from '../../../test/factories.ts';
import type { ServiceContext } from '../context.ts';
import { createMonitor, listMonitors } from '../monitor/index.ts';
import {
	assignPrivateLocationMonitors,
	createPrivateLocation,
	getPrivateLocation
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const monitorsIn = async (ctx: ServiceContext, n: number) => {
	const ids: number[] = [];
	for (let i = 0; i < n; i++)
		ids.push(
			(
				await createMonitor({
					ctx,
					input: { type: 'tcp', name: `m${i}`, periodicity: '1m', uri: 'db:5432' }
				})
			).id
		);
	return ids;
};
const assignedTo = async (ctx: ServiceContext, id: number) =>
	(await getPrivateLocation({ ctx, input: { privateLocationId: id } })).monitor_ids;

describe('private location: the dashboard assignment form', () => {
	it('changes only the monitors the form showed: the 51st monitor keeps its assignment', async () => {
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, monitors: 100 } });
		const ctx = ctxFor(db, ws);
		const ids = await monitorsIn(ctx, 55);
		const loc = await createPrivateLocation({ ctx, input: { name: 'Rack', monitor_ids: ids } });
		// What the old form showed and sent: the first page of 50, one of them unchecked.
		const shown = (await listMonitors({ ctx, input: { perPage: 50 } })).data.map((m) => m.id);
		expect(shown).toHaveLength(50);
		const out = await assignPrivateLocationMonitors({
			ctx,
			input: { privateLocationId: loc.id, add: shown.slice(1), remove: [shown[0]] }
		});
		expect(out.monitor_ids).toEqual(ids.filter((id) => id !== shown[0]).sort((a, b) => a - b));
		expect(await assignedTo(ctx, loc.id)).toHaveLength(54);
		// Adding again what is assigned, and removing what is not, change nothing.
		await assignPrivateLocationMonitors({
			ctx,
			input: { privateLocationId: loc.id, add: [ids[1]], remove: [shown[0]] }
		});
		expect(await assignedTo(ctx, loc.id)).toHaveLength(54);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, action: 'private_location.update' }
		});
		expect(audit).toHaveLength(2);
		expect(JSON.parse(audit[0].after ?? '{}').monitor_ids).toHaveLength(54);
	});

	it('rejects read-only key', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const [a] = await monitorsIn(ctx, 1);
		const loc = await createPrivateLocation({ ctx, input: { name: 'Rack' } });
		expect(
			await codeOf(
				assignPrivateLocationMonitors({
					ctx: ctxFor(db, ws, readKey()),
					input: { privateLocationId: loc.id, add: [a] }
				})
			)
		).toMatch(/^FORBIDDEN/);
		expect(await assignedTo(ctx, loc.id)).toEqual([]);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = ctxFor(db, await createWorkspace(db));
		const theirs = ctxFor(db, await createWorkspace(db));
		const [their] = await monitorsIn(theirs, 1);
		const theirLoc = await createPrivateLocation({ ctx: theirs, input: { name: 'T' } });
		const myLoc = await createPrivateLocation({ ctx: mine, input: { name: 'M' } });
		expect(
			await codeOf(
				assignPrivateLocationMonitors({ ctx: mine, input: { privateLocationId: theirLoc.id } })
			)
		).toBe(`NOT_FOUND: private location ${theirLoc.id} not found`);
		expect(
			await codeOf(
				assignPrivateLocationMonitors({
					ctx: mine,
					input: { privateLocationId: myLoc.id, add: [their] }
				})
			)
		).toBe(`NOT_FOUND: monitor ${their} not found`);
	});

	it('leaves nothing behind on invalid input', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const [a, b] = await monitorsIn(ctx, 2);
		const loc = await createPrivateLocation({ ctx, input: { name: 'Rack', monitor_ids: [a] } });
		expect(
			await codeOf(
				assignPrivateLocationMonitors({
					ctx,
					input: { privateLocationId: loc.id, add: [b, 999999], remove: [a] }
				})
			)
		).toBe('NOT_FOUND: monitor 999999 not found');
		expect(
			await codeOf(
				assignPrivateLocationMonitors({
					ctx,
					// @ts-expect-error the form's partial change has no monitor_ids
					input: { privateLocationId: loc.id, monitor_ids: [b] }
				})
			)
		).toMatch(/^VALIDATION/);
		expect(await assignedTo(ctx, loc.id)).toEqual([a]);
		expect(
			await db.auditLog.count({ where: { workspaceId: ws.id, action: 'private_location.update' } })
		).toBe(0);
	});
});
