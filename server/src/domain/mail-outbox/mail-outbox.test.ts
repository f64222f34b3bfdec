import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDb } from '../../../test/db.ts';
import { createUser, createWorkspace, ctxFor, TEAM_LIMITS } from '../../../test/factories.ts';
import { createTestUpstate } from '../../../test/upstate.ts';
import type { Db } from '../../db/client.ts';
import { loadConfig } from '../../config.ts';
import { createMailer } from '../../mail/index.ts';
import { sendEmail } from '../../notify/providers/email.ts';
import { createCaller } from '../../router/root.ts';
import { getOutboxMail, listOutboxMails, OUTBOX_DAYS, OUTBOX_KEEP } from './index.ts';

// The local outbox: a non-production install with no mail transport keeps every mail, and
// Settings -> Mail shows a workspace's mails to its members and a sign-in mail to its addressee.
let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
	vi.spyOn(console, 'log').mockImplementation(() => {});
});

const outbox = () => createMailer({ from: 'u@test', localOutbox: true }, db);

async function member(email: string) {
	const user = await createUser(db, email);
	const ws = await createWorkspace(db, { limits: TEAM_LIMITS });
	const upstate = { ...createTestUpstate(db), mailer: outbox() };
	const service = ctxFor(db, ws, { type: 'user', userId: user.id, role: 'owner' });
	const api = createCaller({
		upstate,
		db,
		requestId: randomUUID(),
		user: { id: user.id, email },
		sessionId: null,
		service
	});
	return { ws, api, service };
}

describe('the mailer outside production with no transport', () => {
	it('keeps mail in the outbox; production (or no database) keeps none', () => {
		expect(loadConfig({ DATA_DIR: '/tmp/upstate-outbox-test' }).mail.localOutbox).toBe(true);
		expect(outbox().transport).toBe('outbox');
		expect(createMailer({ from: 'u@test', localOutbox: false }, db).transport).toBe('log');
		// Production requires a transport at start; were it missing, its mailer still keeps none.
		const production = loadConfig({
			NODE_ENV: 'production',
			DATA_DIR: '/tmp/upstate-outbox-test',
			AUTH_SECRET: 'a'.repeat(44),
			SELF_HOST: 'true',
			NEXT_PUBLIC_URL: 'https://upstate.example.com',
			SMTP_URL: 'smtp://mail.example.com:587',
			CRON_SECRET: 'cron'
		});
		expect(production.mail.localOutbox).toBe(false);
		expect(createMailer({ ...production.mail, smtpUrl: undefined }, db).transport).toBe('log');
		expect(
			createMailer({ from: 'u@test', smtpUrl: 'smtp://127.0.0.1:1', localOutbox: true }, db)
				.transport
		).toBe('smtp');
	});

	it('keeps the newest OUTBOX_KEEP mails, none older than OUTBOX_DAYS', async () => {
		const old = await db.outboxMail.create({
			data: {
				to: 'old@example.test',
				subject: 'old',
				text: 'old',
				createdAt: new Date(Date.now() - (OUTBOX_DAYS + 1) * 86_400_000)
			}
		});
		await db.outboxMail.createMany({
			data: Array.from({ length: OUTBOX_KEEP }, (_, i) => ({
				to: 'x@example.test',
				subject: `m${i}`,
				text: ''
			}))
		});
		const first = await db.outboxMail.findFirstOrThrow({ where: { subject: 'm0' } });
		await outbox().send({ to: 'y@example.test', subject: 'newest', text: 'hi' });
		expect(await db.outboxMail.count()).toBe(OUTBOX_KEEP);
		expect(await db.outboxMail.findUnique({ where: { id: old.id } })).toBeNull();
		expect(await db.outboxMail.findUnique({ where: { id: first.id } })).toBeNull();
		expect(await db.outboxMail.findFirst({ where: { subject: 'newest' } })).not.toBeNull();
		await db.outboxMail.deleteMany();
	});
});

describe('reading the outbox', () => {
	it('shows a workspace its own mails and a user their own sign-in mails, nothing else', async () => {
		const ann = await member('ann@example.test');
		const bob = await member('bob@example.test');
		// Sign-in mails (no workspace yet) through the real verb, one for each.
		await ann.api.auth.requestMagicLink({ email: 'ann@example.test' });
		await ann.api.auth.requestMagicLink({ email: 'bob@example.test' });
		// An invitation from each workspace, and an e-mail channel send from Ann's.
		await ann.api.invitation.create({ email: 'cat@example.test', role: 'member' });
		await bob.api.invitation.create({ email: 'dan@example.test', role: 'member' });
		const sent = await sendEmail({
			channel: {
				id: 1,
				name: 'Mail',
				providerType: 'email',
				settings: { email: 'ops@example.test' }
			},
			event: {
				kind: 'test',
				monitor: { id: 1, name: 'API', url: 'https://api.example.test' },
				at: '2026-11-24T12:00:00.000Z',
				dashboardUrl: 'http://dash.test/notifications/1'
			},
			deps: {
				config: loadConfig({ DATA_DIR: '/tmp/upstate-outbox-test' }).notify,
				mailer: outbox(),
				workspaceId: ann.ws.id
			}
		});
		expect(sent).toEqual({ ok: true, status: 250 });

		const list = await ann.api.mailOutbox.list();
		expect(list).toMatchObject({ enabled: true, keep: OUTBOX_KEEP, days: OUTBOX_DAYS });
		expect(list.data.map((m) => [m.to, m.subject])).toEqual([
			['ops@example.test', '[Upstate] Test notification from Upstate (API)'],
			['cat@example.test', 'You are invited to an Upstate workspace'],
			['ann@example.test', 'Sign in to Upstate']
		]);
		const signIn = await ann.api.mailOutbox.get({ mailId: list.data[2].id });
		expect(signIn.text).toMatch(/http:\/\/localhost:\d+\/auth\/verify\?token=[\w-]+/);

		const bobs = await bob.api.mailOutbox.list();
		expect(bobs.data.map((m) => m.to)).toEqual(['dan@example.test', 'bob@example.test']);
		// Another workspace's mail and another person's sign-in mail read as missing.
		for (const m of bobs.data)
			await expect(ann.api.mailOutbox.get({ mailId: m.id })).rejects.toThrow(/not found/);
	});

	it('shows nothing when this process keeps no outbox (production, or a transport)', async () => {
		const { service } = await member('eve@example.test');
		await outbox().send({
			to: 'x@example.test',
			subject: 'kept',
			text: '',
			workspaceId: service.workspace.id
		});
		const [row] = (await listOutboxMails({ ctx: service, userEmail: null, enabled: true })).data;
		expect(row.subject).toBe('kept');
		expect(await listOutboxMails({ ctx: service, userEmail: null, enabled: false })).toMatchObject({
			enabled: false,
			data: []
		});
		await expect(
			getOutboxMail({ ctx: service, userEmail: null, enabled: false, input: { mailId: row.id } })
		).rejects.toThrow(`mail ${row.id} not found`);
		await expect(
			getOutboxMail({ ctx: service, userEmail: null, enabled: true, input: { mailId: -1 } })
		).rejects.toThrow(/^mailId/);
	});
});
