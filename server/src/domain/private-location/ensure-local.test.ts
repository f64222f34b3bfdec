import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { createWorkspace } from '../../../test/factories.ts';
import { ensureLocalLocation, ensureLocalLocations } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

describe('ensureLocalLocations', () => {
	it('gives every workspace one Local location and returns them all, once', async () => {
		const [a, b] = [await createWorkspace(db), await createWorkspace(db)];
		await db.$transaction((tx) => ensureLocalLocation({ tx, workspaceId: a.id }));
		const first = await ensureLocalLocations({ db });
		const second = await ensureLocalLocations({ db });
		expect(second).toEqual(first);
		for (const ws of [a, b]) {
			const rows = await db.privateLocation.findMany({
				where: { workspaceId: ws.id, builtIn: true }
			});
			expect(rows).toHaveLength(1);
			expect(first).toContainEqual({ id: rows[0].id, token: rows[0].token });
		}
	});
});
