import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createUser, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { listMembers, removeMember, updateMemberRole } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

async function team() {
	const ws = await createWorkspace(db);
	const [owner, member] = [await createUser(db), await createUser(db)];
	await db.membership.createMany({
		data: [
			{ workspaceId: ws.id, userId: owner.id, role: 'owner' },
			{ workspaceId: ws.id, userId: member.id, role: 'member' }
		]
	});
	return {
		ws,
		owner,
		member,
		ctx: ctxFor(db, ws, { type: 'user', userId: owner.id, role: 'owner' })
	};
}

describe('member service', () => {
	it('lists, promotes and removes members with audit, ending their sessions', async () => {
		const { ws, member, ctx } = await team();
		expect((await listMembers({ ctx })).data.map((m) => m.role)).toEqual(['owner', 'member']);
		expect(
			(await updateMemberRole({ ctx, input: { userId: member.id, role: 'admin' } })).role
		).toBe('admin');
		await db.session.create({
			data: {
				id: `s-${member.id}`,
				userId: member.id,
				workspaceId: ws.id,
				expiresAt: new Date(Date.now() + 60000)
			}
		});
		await removeMember({ ctx, input: { userId: member.id } });
		expect(await db.session.count({ where: { userId: member.id } })).toBe(0);
		const actions = (
			await db.auditLog.findMany({ where: { workspaceId: ws.id }, orderBy: { id: 'asc' } })
		).map((a) => a.action);
		expect(actions).toEqual(['member.update', 'member.delete']);
	});

	it('keeps the last owner', async () => {
		const { owner, ctx } = await team();
		expect(await codeOf(removeMember({ ctx, input: { userId: owner.id } }))).toMatch(
			/^PRECONDITION_FAILED: the last owner/
		);
		expect(
			await codeOf(updateMemberRole({ ctx, input: { userId: owner.id, role: 'member' } }))
		).toMatch(/^PRECONDITION_FAILED/);
	});

	it('lets only owners and admins change members', async () => {
		const { ws, owner, member } = await team();
		const asMember = ctxFor(db, ws, { type: 'user', userId: member.id, role: 'member' });
		expect(await codeOf(removeMember({ ctx: asMember, input: { userId: owner.id } }))).toMatch(
			/^FORBIDDEN/
		);
	});

	it('rejects read-only key', async () => {
		const { ws, member } = await team();
		expect(
			await codeOf(
				updateMemberRole({
					ctx: ctxFor(db, ws, readKey()),
					input: { userId: member.id, role: 'admin' }
				})
			)
		).toMatch(/^FORBIDDEN/);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await team();
		const theirs = await team();
		expect(await codeOf(removeMember({ ctx: mine.ctx, input: { userId: theirs.member.id } }))).toBe(
			`NOT_FOUND: member ${theirs.member.id} not found`
		);
		expect(await db.membership.count({ where: { workspaceId: theirs.ws.id } })).toBe(2);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, member, ctx } = await team();
		expect(
			await codeOf(updateMemberRole({ ctx, input: { userId: member.id, role: 'boss' as 'admin' } }))
		).toMatch(/^VALIDATION: role/);
		expect((await listMembers({ ctx })).data[1].role).toBe('member');
		expect(await db.auditLog.count({ where: { workspaceId: ws.id } })).toBe(0);
	});
});
