import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { createUser, createWorkspace } from '../../../test/factories.ts';
import { getSessionWorkspace } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

describe('getSessionWorkspace', () => {
	it('returns the workspace and role of a member, and nothing for another workspace', async () => {
		const [mine, theirs] = [await createWorkspace(db), await createWorkspace(db)];
		const user = await createUser(db);
		await db.membership.create({ data: { workspaceId: mine.id, userId: user.id, role: 'admin' } });
		const found = await getSessionWorkspace({ db, userId: user.id, workspaceId: mine.id });
		expect(found?.role).toBe('admin');
		expect(found?.workspace).toMatchObject({ id: mine.id, plan: mine.plan });
		expect(found?.workspace.limits).toBeTypeOf('object');
		expect(await getSessionWorkspace({ db, userId: user.id, workspaceId: theirs.id })).toBeNull();
	});
});
