import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import { startSmtp } from '../../../test/servers.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createTestUpstate } from '../../../test/upstate.ts';
import type { Upstate } from '../../app.ts';
import { checkMagicLink, requestMagicLink, signInWithProvider, verifyMagicLink } from './index.ts';

let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let upstate: Upstate;

beforeAll(async () => {
	({ db } = await createTestDb());
	smtp = await startSmtp();
	upstate = createTestUpstate(db, {
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		WORKSPACE_DEFAULT_LIMITS: '{"monitors":5}'
	});
});
afterAll(() => smtp.close());

const request = (email: string) =>
	requestMagicLink({
		db,
		mailer: upstate.mailer,
		dashboardUrl: 'http://dash.test',
		input: { email }
	});
const verify = (token: string) =>
	verifyMagicLink({
		db,
		lucia: upstate.lucia,
		newWorkspace: { plan: 'free', limits: upstate.config.defaultLimits, localLocation: true },
		input: { token }
	});

function tokenFrom(to: string): string {
	const mail = smtp.mails.filter((m) => m.to === to).at(-1);
	const token = /http:\/\/dash\.test\/auth\/verify\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
	if (!token) throw new Error(`no sign-in link mailed to ${to}`);
	return token;
}

describe('magic-link sign-in', () => {
	it('mails a link over SMTP; the first use creates user, workspace, owner membership and session', async () => {
		await request('Ada@Example.test');
		expect(smtp.mails.at(-1)).toMatchObject({
			to: 'ada@example.test',
			subject: 'Sign in to Upstate'
		});
		const {
			sessionId,
			userId,
			workspaceId: maybeWorkspace
		} = await verify(tokenFrom('ada@example.test'));
		expect(maybeWorkspace).not.toBeNull();
		const workspaceId = maybeWorkspace as number;
		expect(await db.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({
			email: 'ada@example.test'
		});
		const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
		expect(ws).toMatchObject({ plan: 'free', limits: '{"monitors":5}' });
		expect(await db.membership.findFirstOrThrow({ where: { workspaceId, userId } })).toMatchObject({
			role: 'owner'
		});
		expect((await upstate.lucia.validateSession(sessionId)).session?.workspaceId).toBe(workspaceId);
		const audit = await db.auditLog.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
		expect(audit.map((a) => a.action)).toEqual(['workspace.create', 'member.create']);
	});

	it('accepts a link once, and a second sign-in reuses the workspace', async () => {
		await request('bob@example.test');
		const token = tokenFrom('bob@example.test');
		const first = await verify(token);
		expect(await codeOf(verify(token))).toBe(
			'UNAUTHORIZED: this sign-in link is invalid or has expired: request a new one'
		);
		await request('bob@example.test');
		const second = await verify(tokenFrom('bob@example.test'));
		expect(second.workspaceId).toBe(first.workspaceId);
		expect(await db.membership.count({ where: { userId: first.userId } })).toBe(1);
	});

	it('carries a safe next path in the link and creates no workspace for an invitee', async () => {
		await requestMagicLink({
			db,
			mailer: upstate.mailer,
			dashboardUrl: 'http://dash.test',
			input: { email: 'ivy@example.test', next: '/invite/accept?token=abc' }
		});
		expect(smtp.mails.at(-1)?.text).toContain('&next=%2Finvite%2Faccept%3Ftoken%3Dabc');
		expect(
			await codeOf(
				requestMagicLink({
					db,
					mailer: upstate.mailer,
					dashboardUrl: 'http://dash.test',
					input: { email: 'ivy@example.test', next: '//evil.test' }
				})
			)
		).toMatch(/^VALIDATION: next/);
		const owner = await db.workspace.create({ data: { name: 'team', slug: `team-${Date.now()}` } });
		await db.invitation.create({
			data: {
				workspaceId: owner.id,
				email: 'ivy@example.test',
				tokenHash: `h-${Date.now()}`,
				expiresAt: new Date(Date.now() + 60000)
			}
		});
		const { userId, workspaceId } = await verify(tokenFrom('ivy@example.test'));
		expect(workspaceId).toBeNull();
		expect(await db.membership.count({ where: { userId } })).toBe(0);
	});

	it('refuses an expired link and rate-limits open links', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			await request('cy@example.test');
			const token = tokenFrom('cy@example.test');
			vi.setSystemTime(Date.now() + 16 * 60 * 1000);
			expect(await codeOf(verify(token))).toMatch(/^UNAUTHORIZED/);
		} finally {
			vi.useRealTimers();
		}
		for (let i = 0; i < 5; i++) await request('dee@example.test');
		expect(await codeOf(request('dee@example.test'))).toMatch(
			/^LIMIT_EXCEEDED: too many sign-in links/
		);
		expect(await codeOf(request('not-an-email'))).toMatch(/^VALIDATION: email/);
	});

	it('prints the link to the log when no mail transport is configured', async () => {
		const local = createTestUpstate(db);
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		try {
			await requestMagicLink({
				db,
				mailer: local.mailer,
				dashboardUrl: 'http://dash.test',
				input: { email: 'eve@example.test' }
			});
			expect(log.mock.calls.flat().join('\n')).toMatch(
				/^\[mail\] not sent .*to=eve@example\.test .*links=http:\/\/dash\.test\/auth\/verify\?token=[\w-]+$/
			);
		} finally {
			log.mockRestore();
		}
	});
});

describe('opening a sign-in link', () => {
	it('changes nothing: the link stays valid until the POST uses it, then reads as used', async () => {
		await request('gus@example.test');
		const token = tokenFrom('gus@example.test');
		const valid = { state: 'valid', email: 'gus@example.test' };
		expect(await checkMagicLink({ db, input: { token } })).toEqual(valid);
		expect(await checkMagicLink({ db, input: { token } })).toEqual(valid);
		await verify(token);
		expect(await checkMagicLink({ db, input: { token } })).toEqual({
			state: 'used',
			email: 'gus@example.test'
		});
		expect(await checkMagicLink({ db, input: { token: 'x'.repeat(40) } })).toEqual({
			state: 'unknown',
			email: null
		});
		expect(await checkMagicLink({ db, input: { token: '' } })).toEqual({
			state: 'unknown',
			email: null
		});
	});

	it('reads an old link as expired', async () => {
		await request('hal@example.test');
		const token = tokenFrom('hal@example.test');
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			vi.setSystemTime(Date.now() + 16 * 60 * 1000);
			expect((await checkMagicLink({ db, input: { token } })).state).toBe('expired');
		} finally {
			vi.useRealTimers();
		}
	});
});

describe('sign-in with a provider', () => {
	const viaProvider = (profile: {
		provider?: string;
		subject: string;
		email: string | null;
		emailVerified: boolean;
	}) =>
		signInWithProvider({
			db,
			lucia: upstate.lucia,
			newWorkspace: { plan: 'free', limits: upstate.config.defaultLimits, localLocation: true },
			input: { provider: 'acme', ...profile }
		});

	it('an unverified address never takes over an existing account, nor links to it', async () => {
		await request('ida@example.test');
		const owner = await verify(tokenFrom('ida@example.test'));
		const sessions = await db.session.count({ where: { userId: owner.userId } });
		expect(
			await codeOf(
				viaProvider({ subject: 'mallory', email: 'Ida@example.test', emailVerified: false })
			)
		).toBe(
			'UNAUTHORIZED: the acme account has no verified e-mail address: verify it there, or sign in with an e-mail link'
		);
		expect(await db.userIdentity.count({ where: { subject: 'mallory' } })).toBe(0);
		expect(await db.session.count({ where: { userId: owner.userId } })).toBe(sessions);
		expect(
			await codeOf(viaProvider({ subject: 'nomail', email: null, emailVerified: true }))
		).toMatch(/^UNAUTHORIZED/);
		expect(await db.user.count({ where: { email: 'ida@example.test' } })).toBe(1);
	});

	it('a verified address links to the existing account and its workspace', async () => {
		await request('jo@example.test');
		const owner = await verify(tokenFrom('jo@example.test'));
		const first = await viaProvider({
			subject: 'jo-1',
			email: 'JO@example.test',
			emailVerified: true
		});
		expect(first).toMatchObject({ userId: owner.userId, workspaceId: owner.workspaceId });
		expect(await db.userIdentity.findFirstOrThrow({ where: { subject: 'jo-1' } })).toMatchObject({
			userId: owner.userId,
			provider: 'acme',
			email: 'jo@example.test'
		});
		expect((await upstate.lucia.validateSession(first.sessionId)).user?.id).toBe(owner.userId);
		// Once linked, the provider's subject is the key, whatever it says about the address now.
		const again = await viaProvider({ subject: 'jo-1', email: null, emailVerified: false });
		expect(again.userId).toBe(owner.userId);
		expect(await db.userIdentity.count({ where: { userId: owner.userId } })).toBe(1);
	});

	it('a new verified person gets a user and a workspace; the same subject at another provider is another identity', async () => {
		const kim = await viaProvider({ subject: 'k', email: 'kim@example.test', emailVerified: true });
		expect(kim.workspaceId).not.toBeNull();
		expect(await db.membership.findFirstOrThrow({ where: { userId: kim.userId } })).toMatchObject({
			role: 'owner',
			workspaceId: kim.workspaceId
		});
		expect(
			await codeOf(
				viaProvider({
					provider: 'other',
					subject: 'k',
					email: 'x@example.test',
					emailVerified: false
				})
			)
		).toMatch(/^UNAUTHORIZED/);
	});
});
