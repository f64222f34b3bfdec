import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { startSmtp } from '../../../test/servers.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createUser, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createMailer, type Mailer } from '../../mail/index.ts';
import { listMyWorkspaces, switchWorkspace } from '../workspace/index.ts';
import {
	acceptInvitation,
	describeInvitation,
	inviteMember,
	listInvitations,
	revokeInvitation
} from './index.ts';

let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let mailer: Mailer;
beforeAll(async () => {
	({ db } = await createTestDb());
	smtp = await startSmtp();
	mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Upstate <u@test>' });
});
afterAll(() => smtp.close());

async function team(limits?: Record<string, unknown>) {
	const ws = await createWorkspace(db, limits ? { plan: 'free', limits } : {});
	const owner = await createUser(db);
	await db.membership.create({ data: { workspaceId: ws.id, userId: owner.id, role: 'owner' } });
	return { ws, owner, ctx: ctxFor(db, ws, { type: 'user', userId: owner.id, role: 'owner' }) };
}
const invite = (ctx: ReturnType<typeof ctxFor>, email: string) =>
	inviteMember({ ctx, mailer, dashboardUrl: 'http://dash.test', input: { email, role: 'admin' } });
const tokenFor = (to: string) =>
	/invite\/accept\?token=([\w-]+)/.exec(
		smtp.mails.filter((m) => m.to === to).at(-1)?.text ?? ''
	)?.[1] ?? '';

describe('invitations', () => {
	it('mails an invitation that the addressee accepts once, joining with the role', async () => {
		const { ws, ctx } = await team();
		const guest = await createUser(db, `guest-${ws.id}@example.test`);
		await invite(ctx, guest.email);
		expect((await listInvitations({ ctx })).data.map((i) => i.email)).toEqual([guest.email]);
		const token = tokenFor(guest.email);
		expect(await acceptInvitation({ db, user: guest, input: { token } })).toEqual({
			workspaceId: ws.id
		});
		expect(
			await db.membership.findFirstOrThrow({ where: { workspaceId: ws.id, userId: guest.id } })
		).toMatchObject({ role: 'admin' });
		expect(await codeOf(acceptInvitation({ db, user: guest, input: { token } }))).toMatch(
			/^UNAUTHORIZED/
		);
		expect((await listInvitations({ ctx })).data).toEqual([]);
		const mine = await listMyWorkspaces({ db, userId: guest.id });
		expect(mine.data.map((w) => w.id)).toEqual([ws.id]);
		const actions = (
			await db.auditLog.findMany({ where: { workspaceId: ws.id }, orderBy: { id: 'asc' } })
		).map((a) => a.action);
		expect(actions).toEqual(['invitation.create', 'member.create']);
	});

	it('names the workspace and address to someone holding the link, until it is used', async () => {
		const { ws, ctx } = await team();
		const email = `preview-${ws.id}@example.test`;
		await invite(ctx, email);
		const token = tokenFor(email);
		expect(await describeInvitation({ db, input: { token } })).toEqual({
			workspace: ws.name,
			email
		});
		expect(await describeInvitation({ db, input: { token: 'x'.repeat(43) } })).toBeNull();
		await acceptInvitation({ db, user: await createUser(db, email), input: { token } });
		expect(await describeInvitation({ db, input: { token } })).toBeNull();
	});

	it('refuses the wrong addressee, an existing member and the members limit', async () => {
		const { ws, owner, ctx } = await team();
		await invite(ctx, `x-${ws.id}@example.test`);
		const stranger = await createUser(db);
		expect(
			await codeOf(
				acceptInvitation({
					db,
					user: stranger,
					input: { token: tokenFor(`x-${ws.id}@example.test`) }
				})
			)
		).toMatch(/^FORBIDDEN: this invitation is for/);
		expect(await codeOf(invite(ctx, owner.email))).toBe(
			`CONFLICT: ${owner.email} is already a member`
		);
		const free = await team({});
		expect(await codeOf(invite(free.ctx, 'y@example.test'))).toBe(
			"LIMIT_EXCEEDED: limit 'members' reached: your plan allows 1"
		);
	});

	it('rejects read-only key', async () => {
		const { ws } = await team();
		expect(await codeOf(invite(ctxFor(db, ws, readKey()), 'z@example.test'))).toMatch(/^FORBIDDEN/);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await team();
		const theirs = await team();
		const inv = await invite(theirs.ctx, `w-${theirs.ws.id}@example.test`);
		expect(await codeOf(revokeInvitation({ ctx: mine.ctx, input: { invitationId: inv.id } }))).toBe(
			`NOT_FOUND: invitation ${inv.id} not found`
		);
		expect(
			await codeOf(
				switchWorkspace({
					db,
					userId: mine.owner.id,
					sessionId: 'none',
					input: { workspaceId: theirs.ws.id }
				})
			)
		).toMatch(/^NOT_FOUND/);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx } = await team();
		const before = smtp.mails.length;
		expect(await codeOf(invite(ctx, 'not-an-email'))).toMatch(/^VALIDATION: email/);
		expect(await db.invitation.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(smtp.mails.length).toBe(before);
	});
});
