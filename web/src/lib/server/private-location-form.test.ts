import { randomUUID } from 'node:crypto';
import { createCaller } from '@upstate/server';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../server/test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../../../../server/test/factories.ts';
import { createTestUpstate } from '../../../../server/test/upstate.ts';
import { listAllMonitors } from './monitors.ts';
import { assignmentOf } from './private-location-form.ts';

describe('private location assignment form', () => {
	it('lists every monitor and saves only what it showed, through the in-process caller', async () => {
		const { db } = await createTestDb();
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, monitors: 100 } });
		const api = createCaller({
			upstate: createTestUpstate(db),
			db,
			requestId: randomUUID(),
			user: null,
			sessionId: null,
			service: ctxFor(db, ws)
		});
		const ids: number[] = [];
		for (let i = 0; i < 53; i++)
			ids.push(
				(await api.monitor.create({ type: 'tcp', name: `m${i}`, periodicity: '1m', uri: 'db:1' }))
					.id
			);
		const loc = await api.privateLocation.create({ name: 'Rack', monitor_ids: ids });
		const shown = await listAllMonitors(api);
		expect(shown.map((m) => m.id).sort((a, b) => a - b)).toEqual(ids);
		// The user unchecks one monitor and saves.
		const form = new FormData();
		for (const m of shown) {
			form.append('shown_ids', String(m.id));
			if (m.id !== ids[52]) form.append('monitor_ids', String(m.id));
		}
		await api.privateLocation.assignMonitors({ privateLocationId: loc.id, ...assignmentOf(form) });
		const after = await api.privateLocation.get({ privateLocationId: loc.id });
		expect(after.monitor_ids).toEqual(ids.slice(0, 52));
	});
});
