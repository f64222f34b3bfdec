import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp } from '../../../test/servers.ts';
import { createTestDb } from '../../../test/db.ts';
import { createTestUpstate } from '../../../test/upstate.ts';
import type { Upstate } from '../../app.ts';
import { callerForSession } from '../../auth/context.ts';
import type { Db } from '../../db/client.ts';
import { toServiceError } from '../../router/errors.ts';
import { FREE_PLAN_LIMITS } from '../limits.ts';

// New workspaces on a self-hosted instance (SELF_HOST=true) and the instance admin who sets any
// workspace's plan, through the router the dashboard calls.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
	smtp = await startSmtp();
});
afterAll(() => smtp.close());

async function instance(env: Record<string, string>): Promise<{ db: Db; upstate: Upstate }> {
	const { db } = await createTestDb();
	return {
		db,
		upstate: createTestUpstate(db, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ...env })
	};
}

// Signs up by magic link as the dashboard does; returns a caller acting as that user.
async function signUp(upstate: Upstate, email: string) {
	const anonymous = await callerForSession({ upstate, sessionId: null });
	await anonymous.api.auth.requestMagicLink({ email });
	const mail = smtp.mails.filter((m) => m.to === email).at(-1);
	const token = /token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
	if (!token) throw new Error(`no link mailed to ${email}`);
	const { sessionId, workspaceId } = await anonymous.api.auth.verifyMagicLink({ token });
	const { api } = await callerForSession({ upstate, sessionId });
	return { api, workspaceId: workspaceId! };
}

const codeOf = (p: Promise<unknown>) =>
	p.then(
		() => 'resolved',
		(err: unknown) => toServiceError(err).code
	);

describe('new workspaces', () => {
	it('start on the self-host plan with every limits key written out when SELF_HOST=true', async () => {
		const { db, upstate } = await instance({ SELF_HOST: 'true' });
		const { workspaceId } = await signUp(upstate, 'ops@self.test');
		const row = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
		expect(row.plan).toBe('self-host');
		const stored = JSON.parse(row.limits) as Record<string, unknown>;
		expect(Object.keys(stored).sort()).toEqual(Object.keys(FREE_PLAN_LIMITS).sort());
		for (const [key, value] of Object.entries(stored)) {
			if (typeof value === 'boolean') expect(value, key).toBe(true);
			if (typeof value === 'number') expect(value, key).toBeGreaterThanOrEqual(28);
		}
		expect(stored.periodicity).toEqual(['30s', '1m', '5m', '10m', '30m', '1h']);
		expect(stored.members).toBe('Unlimited');
		expect(stored.regions).toHaveLength(28);
	});

	it('keep the free plan of spec 2.3 without SELF_HOST, with WORKSPACE_DEFAULT_LIMITS on top', async () => {
		const { db, upstate } = await instance({ WORKSPACE_DEFAULT_LIMITS: '{"monitors":5}' });
		const { workspaceId, api } = await signUp(upstate, 'saas@free.test');
		const row = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
		expect(row.plan).toBe('free');
		expect(JSON.parse(row.limits)).toEqual({ monitors: 5 });
		expect((await api.workspace.current()).limits.periodicity).toEqual(['10m', '30m', '1h']);
	});

	it('get the built-in Local location only where this installation runs the Local probe', async () => {
		const allInOne = await instance({ SELF_HOST: 'true' });
		const a = await signUp(allInOne.upstate, 'one@self.test');
		expect(
			await allInOne.db.privateLocation.count({
				where: { workspaceId: a.workspaceId, builtIn: true }
			})
		).toBe(1);
		// A compose stack's dashboard container (spec 1.1: the probe is not part of the stack).
		const stack = await instance({ SELF_HOST: 'true', UPSTATE_SERVICES: 'dashboard' });
		const b = await signUp(stack.upstate, 'two@self.test');
		expect(await stack.db.privateLocation.count({ where: { workspaceId: b.workspaceId } })).toBe(0);
	});
});

describe('the instance admin', () => {
	it('is the first user: sees every workspace and sets any plan and limits, audited', async () => {
		const { db, upstate } = await instance({ SELF_HOST: 'true' });
		const admin = await signUp(upstate, 'first@self.test');
		const other = await signUp(upstate, 'second@self.test');
		expect(await admin.api.admin.isInstanceAdmin()).toBe(true);
		expect(await other.api.admin.isInstanceAdmin()).toBe(false);

		const { data } = await admin.api.admin.workspaces();
		expect(data.map((w) => w.id)).toEqual([admin.workspaceId, other.workspaceId]);
		expect(data[1]).toMatchObject({ plan: 'self-host', members: 1 });

		const set = await admin.api.admin.setWorkspacePlan({
			workspaceId: other.workspaceId,
			plan: 'team',
			limits: { monitors: 3, periodicity: ['1m', '5m'] }
		});
		expect(set).toMatchObject({ plan: 'team', stored_limits: { monitors: 3 } });
		// The workspace's own members see the new limits; keys left out are the free plan's.
		const current = await other.api.workspace.current();
		expect(current.plan).toBe('team');
		expect(current.limits).toMatchObject({ monitors: 3, periodicity: ['1m', '5m'], members: 1 });
		const audit = await db.auditLog.findFirstOrThrow({
			where: { workspaceId: other.workspaceId, action: 'workspace.update' }
		});
		expect(audit).toMatchObject({ actorType: 'user', actorUserId: 1 });
	});

	it('is the only one who can: others are refused and nothing changes', async () => {
		const { db, upstate } = await instance({ SELF_HOST: 'true' });
		const admin = await signUp(upstate, 'first@self.test');
		const other = await signUp(upstate, 'second@self.test');
		expect(await codeOf(other.api.admin.workspaces())).toBe('FORBIDDEN');
		expect(
			await codeOf(
				other.api.admin.setWorkspacePlan({
					workspaceId: admin.workspaceId,
					plan: 'free',
					limits: {}
				})
			)
		).toBe('FORBIDDEN');
		// Malformed limits and unknown workspaces are refused with their own codes.
		expect(
			await codeOf(
				admin.api.admin.setWorkspacePlan({
					workspaceId: other.workspaceId,
					plan: 'team',
					limits: { monitors: -1 }
				})
			)
		).toBe('VALIDATION');
		expect(
			await codeOf(
				admin.api.admin.setWorkspacePlan({
					workspaceId: other.workspaceId,
					plan: 'team',
					// @ts-expect-error an unknown limits key is refused, not ignored
					limits: { monitorz: 3 }
				})
			)
		).toBe('VALIDATION');
		expect(
			await codeOf(
				admin.api.admin.setWorkspacePlan({ workspaceId: 9999, plan: 'team', limits: {} })
			)
		).toBe('NOT_FOUND');
		const rows = await db.workspace.findMany({ orderBy: { id: 'asc' } });
		expect(rows.map((r) => r.plan)).toEqual(['self-host', 'self-host']);
	});

	it('is whoever ADMIN_EMAILS lists, when it is set', async () => {
		const { upstate } = await instance({ SELF_HOST: 'true', ADMIN_EMAILS: 'Boss@Self.test' });
		const first = await signUp(upstate, 'first@self.test');
		const boss = await signUp(upstate, 'boss@self.test');
		expect(await first.api.admin.isInstanceAdmin()).toBe(false);
		expect(await boss.api.admin.isInstanceAdmin()).toBe(true);
		expect((await boss.api.admin.workspaces()).data).toHaveLength(2);
	});
});
