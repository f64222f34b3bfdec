import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createUser, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

async function owner() {
	const ws = await createWorkspace(db);
	const user = await createUser(db);
	return { ws, ctx: ctxFor(db, ws, { type: 'user', userId: user.id, role: 'owner' }) };
}

describe('api key service', () => {
	it('shows the key once, stores only its hash, authenticates it and stops after revocation', async () => {
		const { ws, ctx } = await owner();
		const created = await createApiKey({ ctx, input: { name: 'ci', scope: 'write' } });
		expect(created.key).toMatch(/^us_[\w-]{43}$/);
		const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
		expect(row.keyHash).toBe(createHash('sha256').update(created.key).digest('hex'));
		expect(JSON.stringify(row)).not.toContain(created.key);
		const listed = await listApiKeys({ ctx });
		expect(listed.data).toEqual([
			expect.objectContaining({ id: created.id, start: created.key.slice(0, 8), scope: 'write' })
		]);
		expect(JSON.stringify(listed)).not.toContain(created.key);
		expect(await authenticateApiKey({ db, key: created.key })).toMatchObject({
			keyId: created.id,
			scope: 'write',
			workspace: { id: ws.id }
		});
		await revokeApiKey({ ctx, input: { keyId: created.id } });
		expect(await authenticateApiKey({ db, key: created.key })).toBeNull();
		expect(await authenticateApiKey({ db, key: 'us_wrong' })).toBeNull();
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'api_key' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => a.action)).toEqual(['api_key.create', 'api_key.revoke']);
		expect(JSON.stringify(audit)).not.toContain(created.key);
	});

	it('lets only owners and admins issue keys, and validates input', async () => {
		const { ws, ctx } = await owner();
		const member = await createUser(db);
		expect(
			await codeOf(
				createApiKey({
					ctx: ctxFor(db, ws, { type: 'user', userId: member.id, role: 'member' }),
					input: { name: 'x', scope: 'read' }
				})
			)
		).toMatch(/^FORBIDDEN/);
		expect(await codeOf(createApiKey({ ctx, input: { name: '', scope: 'read' } }))).toMatch(
			/^VALIDATION: name:/
		);
		expect(
			await codeOf(createApiKey({ ctx, input: { name: 'x', scope: 'admin' as 'read' } }))
		).toMatch(/^VALIDATION: scope:/);
	});

	it('rejects read-only key', async () => {
		const { ws } = await owner();
		expect(
			await codeOf(
				createApiKey({ ctx: ctxFor(db, ws, readKey()), input: { name: 'x', scope: 'write' } })
			)
		).toMatch(/^FORBIDDEN/);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await owner();
		const theirs = await owner();
		const key = await createApiKey({ ctx: theirs.ctx, input: { name: 'x', scope: 'read' } });
		expect(await codeOf(revokeApiKey({ ctx: mine.ctx, input: { keyId: key.id } }))).toBe(
			`NOT_FOUND: api key ${key.id} not found`
		);
		expect(await authenticateApiKey({ db, key: key.key })).not.toBeNull();
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx } = await owner();
		expect(
			await codeOf(createApiKey({ ctx, input: { name: 'x'.repeat(257), scope: 'read' } }))
		).toMatch(/^VALIDATION/);
		expect(await db.apiKey.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(await db.auditLog.count({ where: { workspaceId: ws.id } })).toBe(0);
	});
});
