import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createUser, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createApiKey } from '../api-key/index.ts';
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

	// A credential is not a way around a role: keys and connected apps act with the current
	// role of the member who made them.
	it('lets a key or an app administer only while its creator is an owner or admin', async () => {
		const { ws, owner, member, ctx } = await team();
		const admin = await createUser(db);
		await db.membership.create({ data: { workspaceId: ws.id, userId: admin.id, role: 'admin' } });
		const adminKey = ctxFor(db, ws, {
			type: 'apiKey',
			keyId: 1,
			userId: admin.id,
			scope: 'write',
			via: 'rest'
		});
		const memberApp = ctxFor(db, ws, {
			type: 'oauth',
			grantId: 1,
			userId: member.id,
			scope: 'write'
		});
		expect(
			await codeOf(
				updateMemberRole({ ctx: memberApp, input: { userId: member.id, role: 'owner' } })
			)
		).toBe(
			'FORBIDDEN: this action needs the role owner or admin; a connected app acts with the role of the member who created it (member)'
		);
		expect(
			(await updateMemberRole({ ctx: adminKey, input: { userId: member.id, role: 'admin' } })).role
		).toBe('admin');
		// A key made by a key keeps the person behind it.
		const made = await createApiKey({ ctx: adminKey, input: { name: 'ci', scope: 'write' } });
		expect((await db.apiKey.findUniqueOrThrow({ where: { id: made.id } })).createdById).toBe(
			admin.id
		);
		// Demoted, the admin's key loses what they lost; removed, it administers nothing.
		await updateMemberRole({ ctx, input: { userId: admin.id, role: 'member' } });
		expect(
			await codeOf(updateMemberRole({ ctx: adminKey, input: { userId: owner.id, role: 'member' } }))
		).toMatch(/^FORBIDDEN: .*created it \(member\)$/);
		await removeMember({ ctx, input: { userId: admin.id } });
		expect(await codeOf(removeMember({ ctx: adminKey, input: { userId: member.id } }))).toBe(
			'FORBIDDEN: this action needs the role owner or admin; no current member of the workspace stands behind this API key: ask an owner or admin to issue a new one'
		);
		expect(
			await codeOf(
				removeMember({
					ctx: ctxFor(db, ws, {
						type: 'apiKey',
						keyId: 2,
						userId: null,
						scope: 'write',
						via: 'rpc'
					}),
					input: { userId: member.id }
				})
			)
		).toMatch(/^FORBIDDEN: .*no current member/);
		expect(await db.membership.count({ where: { workspaceId: ws.id } })).toBe(2);
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
