import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startSmtp } from '../../../test/servers.ts';
import type { Db } from '../../db/client.ts';
import { verifyWebhookSignature, type Notifier } from '../../notify/index.ts';
import { testNotifier, testVault } from '../../../test/alerting.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from '../../../test/factories.ts';
import { startFakeVendor } from '../../../test/fake-vendor.ts';
import { runDueDeliveries } from '../delivery/index.ts';
import { createMailer } from '../../mail/index.ts';
import { subscriberConfirmMail } from '../../mail/templates/subscriber.ts';
import { createMaintenance } from '../maintenance/index.ts';
import { createPageComponent } from '../page-component/index.ts';
import {
	createStatusPage,
	requestStatusPageAccess,
	updateStatusPage,
	verifyStatusPageAccess
} from '../status-page/index.ts';
import type { PublicDeps } from '../status-page/public/index.ts';
import { addStatusReportUpdate, createStatusReport } from '../status-report/index.ts';
import { PER_CLIENT_PER_HOUR, SubscribeBudget } from './send-budget.ts';
import {
	CONFIRM_LINK_TTL_MS,
	addWebhookSubscriber,
	confirmSubscription,
	createSubscriberNotifier,
	csvField,
	enqueueMaintenanceNotices,
	exportSubscribersCsv,
	listSubscribers,
	removeSubscriber,
	subscribeToStatusPage,
	unsubscribeFromStatusPage
} from './index.ts';

const LIMITS = { ...TEAM_LIMITS, 'status-subscribers': true, maintenance: true };
const SECRET = 'test-auth-secret'; // testNotifier's linkSecret: unsubscribe links verify with it

let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let deps: PublicDeps;
let notifier: Notifier;
const subscribers = () => createSubscriberNotifier({ db, statusPageUrl: 'http://status.test' });
const reader = { socketAddress: '127.0.0.1' };

beforeAll(async () => {
	({ db } = await createTestDb());
	smtp = await startSmtp();
	notifier = testNotifier({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	deps = {
		db,
		analytics: { dailyStatus: async () => [] },
		mailer: notifier.mailer,
		secret: SECRET,
		trustedProxyHops: 0,
		statusPageUrl: 'http://status.test'
	};
	vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(async () => {
	vi.restoreAllMocks();
	notifier.mailer.close?.();
	await smtp.close();
});

async function until(fn: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await fn())) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, 10));
	}
}

async function setup(limits: Record<string, unknown> = LIMITS) {
	const ws = await createWorkspace(db, { limits });
	const ctx = ctxFor(db, ws);
	const page = await createStatusPage({ ctx, input: { title: 'Acme', slug: `acme-${ws.id}` } });
	const api = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'API' }
	});
	const web = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'Web' }
	});
	return { ws, ctx, page, api, web, slug: `acme-${ws.id}` };
}

const mailsTo = (to: string) => smtp.mails.filter((m) => m.to === to);
const tokenIn = (text: string, path: string) =>
	new URL(
		text.match(new RegExp(`https?://\\S+/${path}\\?token=\\S+`))?.[0] ?? 'http://x'
	).searchParams.get('token') ?? '';

// Subscribes and confirms through the mailed link; returns the subscriber's address.
async function subscribed(slug: string, email: string, componentIds: number[] = []) {
	await subscribeToStatusPage({ deps, input: { page: { slug }, reader, email, componentIds } });
	await until(() => mailsTo(email).length === 1);
	const token = tokenIn(mailsTo(email)[0]?.text ?? '', 'subscribe/confirm');
	await confirmSubscription({ deps, input: { page: { slug }, token } });
	return email;
}

const report = (
	ctx: ReturnType<typeof ctxFor>,
	pageId: number,
	notify: boolean,
	pageComponentIds: number[] = []
) =>
	createStatusReport({
		ctx,
		notifier: subscribers(),
		input: {
			pageId,
			title: 'API errors',
			status: 'investigating',
			message: 'Looking into it',
			pageComponentIds,
			notify
		}
	});

const deliveries = (workspaceId: number) =>
	db.delivery.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });

describe('status page subscribers', () => {
	it('double opt-in, notice with one-click unsubscribe headers, unsubscribe stops the next one', async () => {
		const { ws, ctx, page, slug } = await setup();
		const email = 'reader@example.com';
		await subscribeToStatusPage({ deps, input: { page: { slug }, reader, email } });
		await until(() => mailsTo(email).length === 1);
		const confirmMail = mailsTo(email)[0];
		expect(confirmMail?.subject).toBe('Confirm your subscription to Acme');
		expect(confirmMail?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
		// Pending: no notice yet, and asking again answers the same without another mail.
		expect(await report(ctx, page.id, true)).toMatchObject({ notified: true });
		expect(await deliveries(ws.id)).toHaveLength(0);
		expect(
			await subscribeToStatusPage({
				deps,
				input: { page: { slug }, reader, email: 'Reader@Example.com' }
			})
		).toEqual({ ok: true });
		const token = tokenIn(confirmMail?.text ?? '', 'subscribe/confirm');
		const row = await db.pageSubscriber.findFirstOrThrow({ where: { pageId: page.id } });
		expect(row.tokenHash).not.toContain(token);
		expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
		await confirmSubscription({ deps, input: { page: { slug }, token } });
		// Confirmed: subscribing again still answers the same and sends nothing.
		expect(await subscribeToStatusPage({ deps, input: { page: { slug }, reader, email } })).toEqual(
			{
				ok: true
			}
		);
		expect(mailsTo(email)).toHaveLength(1);

		const published = await report(ctx, page.id, true);
		expect(published.notified).toBe(true);
		expect((await deliveries(ws.id)).map((d) => [d.kind, d.status])).toEqual([
			['subscriber-email', 'pending']
		]);
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ sent: 1 });
		await until(() => mailsTo(email).length === 2);
		const notice = mailsTo(email)[1];
		expect(notice?.subject).toBe('[Acme] New incident: API errors');
		expect(notice?.text).toContain('Looking into it');
		expect(notice?.html).toContain('Unsubscribe');
		expect(notice?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
		const header = notice?.headers['list-unsubscribe'] ?? '';
		expect(header).toMatch(new RegExp(`^<http://status.test/${slug}/unsubscribe\\?token=[^>]+>$`));
		const unsubscribeToken = new URL(header.slice(1, -1)).searchParams.get('token') ?? '';
		expect(notice?.text).toContain(unsubscribeToken);

		await unsubscribeFromStatusPage({ deps, input: { page: { slug }, token: unsubscribeToken } });
		// Twice is fine (mail clients retry); a forged token is refused.
		await unsubscribeFromStatusPage({ deps, input: { page: { slug }, token: unsubscribeToken } });
		expect(
			await codeOf(
				unsubscribeFromStatusPage({
					deps,
					input: { page: { slug }, token: `${row.id}.forgedforgedforged` }
				})
			)
		).toBe('UNAUTHORIZED: this unsubscribe link is invalid');
		await addStatusReportUpdate({
			ctx,
			notifier: subscribers(),
			input: { reportId: published.id, status: 'identified', message: 'Found it', notify: true }
		});
		expect(await deliveries(ws.id)).toHaveLength(1);
		expect((await listSubscribers({ ctx, input: { pageId: page.id } })).data).toEqual([]);
	});

	it('re-sends a confirmation only after the rate-limit interval', async () => {
		const { slug } = await setup();
		const email = 'again@example.com';
		for (let i = 0; i < 5; i++)
			await subscribeToStatusPage({ deps, input: { page: { slug }, reader, email } });
		await until(() => mailsTo(email).length >= 1);
		await new Promise((r) => setTimeout(r, 100));
		expect(mailsTo(email)).toHaveLength(1);
		const later = { ...deps, now: () => new Date(Date.now() + 11 * 60_000) };
		await subscribeToStatusPage({ deps: later, input: { page: { slug }, reader, email } });
		await until(() => mailsTo(email).length === 2);
		// The new link replaces the old one.
		const [first, second] = mailsTo(email).map((m) => tokenIn(m.text, 'subscribe/confirm'));
		expect(
			await codeOf(confirmSubscription({ deps, input: { page: { slug }, token: first ?? '' } }))
		).toMatch(/^UNAUTHORIZED/);
		await confirmSubscription({ deps, input: { page: { slug }, token: second ?? '' } });
	});

	it('a confirmation link expires; confirming twice is harmless', async () => {
		const { slug } = await setup();
		const [late, twice] = ['late@example.com', 'twice@example.com'];
		for (const email of [late, twice])
			await subscribeToStatusPage({ deps, input: { page: { slug }, reader, email } });
		await until(() => mailsTo(late).length === 1 && mailsTo(twice).length === 1);
		const tokenOf = (email: string) => tokenIn(mailsTo(email)[0]?.text ?? '', 'subscribe/confirm');
		const after = { ...deps, now: () => new Date(Date.now() + CONFIRM_LINK_TTL_MS + 60_000) };
		expect(
			await codeOf(
				confirmSubscription({ deps: after, input: { page: { slug }, token: tokenOf(late) } })
			)
		).toBe('UNAUTHORIZED: this link has expired: subscribe again for a new one');
		expect(await db.pageSubscriber.findFirst({ where: { email: late } })).toMatchObject({
			confirmedAt: null
		});
		const input = { page: { slug }, token: tokenOf(twice) };
		await confirmSubscription({ deps, input });
		expect(await confirmSubscription({ deps: after, input })).toEqual({ confirmed: true });
	});

	it('answers a new address without waiting for the mail server (no timing tell)', async () => {
		const { slug } = await setup();
		// An SMTP peer that accepts the connection and never greets.
		const sockets: net.Socket[] = [];
		const silent = net.createServer((socket) => sockets.push(socket));
		const port = await freePort();
		await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
		const smtp = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'u@test' });
		// The confirmation's send, watched: it cannot finish while the peer stays silent.
		let sending: Promise<void> | undefined;
		let sent = false;
		const mailer = {
			...smtp,
			send: (message: Parameters<typeof smtp.send>[0]) =>
				(sending = smtp.send(message).finally(() => (sent = true)))
		};
		try {
			const email = 'new@example.com';
			const answer = await subscribeToStatusPage({
				deps: { ...deps, mailer },
				input: { page: { slug }, reader, email }
			});
			expect(answer).toEqual({ ok: true });
			// Answered while the mail was still on its way, not after.
			expect(sending).toBeDefined();
			expect(sent).toBe(false);
			sending?.catch(() => {});
		} finally {
			smtp.close?.();
			for (const s of sockets) s.destroy();
			silent.close();
		}
	});

	it('a confirmation that could not be sent can be asked for again at once', async () => {
		const { slug } = await setup();
		const email = 'retry@example.com';
		const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const down = createMailer({ smtpUrl: `smtp://127.0.0.1:${await freePort()}`, from: 'u@test' });
		await subscribeToStatusPage({
			deps: { ...deps, mailer: down },
			input: { page: { slug }, reader, email }
		});
		const row = () => db.pageSubscriber.findFirstOrThrow({ where: { email } });
		await until(async () => (await row()).confirmSentAt === null);
		down.close?.();
		expect(spy.mock.calls.flat().join('\n')).toMatch(/\[subscriber\] confirmation not sent/);
		spy.mockRestore();
		await subscribeToStatusPage({ deps, input: { page: { slug }, reader, email } });
		await until(() => mailsTo(email).length === 1);
	});

	it("mail links use the page's custom domain when the plan serves it", async () => {
		const linksFor = async (limits: Record<string, unknown>, email: string) => {
			const ws = await createWorkspace(db, { limits: { ...LIMITS, 'custom-domain': true } });
			const slug = `domain-${ws.id}`;
			const page = await createStatusPage({
				ctx: ctxFor(db, ws),
				input: { title: 'Acme', slug, custom_domain: `status-${ws.id}.acme.test` }
			});
			// The plan as it is now (a downgrade keeps the stored domain).
			const now = await db.workspace.update({
				where: { id: ws.id },
				data: { limits: JSON.stringify(limits) }
			});
			const ctx = ctxFor(db, now);
			await subscribed(slug, email);
			await report(ctx, page.id, true);
			expect(await runDueDeliveries({ db, notifier })).toMatchObject({ sent: 1 });
			await until(() => mailsTo(email).length === 2);
			const [confirm, notice] = mailsTo(email);
			return {
				base: `http://status-${ws.id}.acme.test`,
				slugBase: `http://status.test/${slug}`,
				confirm: confirm?.text.match(/https?:\/\/\S+\/subscribe\/confirm/)?.[0],
				details: notice?.text.match(/Details: (\S+)/)?.[1],
				unsubscribe: notice?.headers['list-unsubscribe']
			};
		};
		const served = await linksFor({ ...LIMITS, 'custom-domain': true }, 'domain@example.com');
		expect(served.confirm).toBe(`${served.base}/subscribe/confirm`);
		expect(served.details).toBe(`${served.base}/reports/${served.details?.split('/').at(-1)}`);
		expect(served.unsubscribe).toMatch(new RegExp(`^<${served.base}/unsubscribe\\?token=`));
		const unserved = await linksFor(LIMITS, 'nodomain@example.com');
		expect(unserved.confirm).toBe(`${unserved.slugBase}/subscribe/confirm`);
		expect(unserved.unsubscribe).toMatch(new RegExp(`^<${unserved.slugBase}/unsubscribe\\?token=`));
	});

	it('caps confirmation mail per client and per address, so a page cannot mail-bomb anyone', async () => {
		const withBudget = { ...deps, subscribeBudget: new SubscribeBudget() };
		const pages = [await setup(), await setup(), await setup(), await setup()];
		const ask = (slug: string, email: string, socketAddress = '198.51.100.7') =>
			subscribeToStatusPage({
				deps: withBudget,
				input: { page: { slug }, reader: { socketAddress }, email }
			});
		// One address, four pages, four clients: three confirmations, and every answer the same.
		const victim = `victim-${pages[0].ws.id}@example.com`;
		for (const [i, p] of pages.entries())
			expect(await ask(p.slug, victim, `203.0.113.${i}`)).toEqual({ ok: true });
		await until(() => mailsTo(victim).length === 3);
		await new Promise((r) => setTimeout(r, 200));
		expect(mailsTo(victim)).toHaveLength(3);
		// One client, many addresses: refused once it has asked PER_CLIENT_PER_HOUR times.
		for (let i = 0; i < PER_CLIENT_PER_HOUR; i++)
			await ask(pages[i % 4].slug, `a${i}-${pages[0].ws.id}@example.com`);
		expect(await codeOf(ask(pages[0].slug, `one-more-${pages[0].ws.id}@example.com`))).toBe(
			'LIMIT_EXCEEDED: too many subscriptions from your address: try again in an hour'
		);
		expect(
			await db.pageSubscriber.count({ where: { email: `one-more-${pages[0].ws.id}@example.com` } })
		).toBe(0);
		// Another client is not held back by it.
		expect(await ask(pages[0].slug, `other-${pages[0].ws.id}@example.com`, '198.51.100.8')).toEqual(
			{
				ok: true
			}
		);
	});

	it('notify false enqueues nothing; the component filter picks who hears of what', async () => {
		const { ws, ctx, page, api, web, slug } = await setup();
		const all = await subscribed(slug, 'all@example.com');
		const apiOnly = await subscribed(slug, 'api@example.com', [api.id]);
		await subscribed(slug, 'web@example.com', [web.id]);
		expect(await report(ctx, page.id, false, [api.id])).toMatchObject({ notified: false });
		expect(await deliveries(ws.id)).toHaveLength(0);
		await report(ctx, page.id, true, [api.id]);
		const rows = await deliveries(ws.id);
		const ids = rows.map((d) => (JSON.parse(d.payload) as { subscriberId: number }).subscriberId);
		const emails = (
			await db.pageSubscriber.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } })
		).map((s) => s.email);
		expect(emails).toEqual([all, apiOnly]);
	});

	it('mails only where the page may be read: its allowed domains, and never from an unpublished page', async () => {
		const { ws, ctx, page, slug } = await setup({ ...LIMITS, 'email-domain-protection': true });
		const ada = await subscribed(slug, `ada-${ws.id}@acme.test`);
		await subscribed(slug, `eve-${ws.id}@elsewhere.test`);
		await updateStatusPage({
			ctx,
			input: { pageId: page.id, access_type: 'email-domain', auth_email_domains: ['acme.test'] }
		});
		await report(ctx, page.id, true);
		const notified = async () => {
			const ids = (await deliveries(ws.id)).map(
				(d) => (JSON.parse(d.payload) as { subscriberId: number }).subscriberId
			);
			const rows = await db.pageSubscriber.findMany({ where: { id: { in: ids } } });
			return rows.map((r) => r.email);
		};
		expect(await notified()).toEqual([ada]);

		// A reader let in by a link at acme.test cannot sign up an address elsewhere.
		await requestStatusPageAccess({ deps, input: { page: { slug }, email: ada } });
		await until(() => mailsTo(ada).some((m) => m.text.includes('/access?token=')));
		const token = tokenIn(
			mailsTo(ada).find((m) => m.text.includes('/access?token='))?.text ?? '',
			'access'
		);
		const { cookie } = await verifyStatusPageAccess({ deps, input: { page: { slug }, token } });
		const granted = { ...reader, grants: [cookie.value] };
		const ask = (email: string) =>
			subscribeToStatusPage({ deps, input: { page: { slug }, reader: granted, email } });
		expect(await codeOf(ask(`mallory-${ws.id}@elsewhere.test`))).toBe(
			'VALIDATION: email: this page only takes addresses at its allowed domains'
		);
		expect(await ask(`bob-${ws.id}@acme.test`)).toEqual({ ok: true });

		await db.statusPage.update({ where: { id: page.id }, data: { published: false } });
		const before = (await deliveries(ws.id)).length;
		await report(ctx, page.id, true);
		expect(await deliveries(ws.id)).toHaveLength(before);
	});

	it("speaks the page's language: confirmation and notices in its default locale", async () => {
		const { ws, ctx, page, slug } = await setup({ ...LIMITS, i18n: true });
		await updateStatusPage({ ctx, input: { pageId: page.id, default_locale: 'de' } });
		const email = `leser-${ws.id}@example.com`;
		await subscribed(slug, email);
		const [confirm] = mailsTo(email);
		expect(confirm?.subject).toBe('Bestätigen Sie Ihr Abonnement von Acme');
		expect(confirm?.html).toContain('<html lang="de">');
		expect(confirm?.html).toContain('Abonnement bestätigen');
		await report(ctx, page.id, true);
		await runDueDeliveries({ db, notifier });
		await until(() => mailsTo(email).length === 2);
		const notice = mailsTo(email)[1];
		expect(notice?.subject).toBe('[Acme] Neuer Vorfall: API errors');
		expect(notice?.text).toContain('Status: Wird untersucht');
		expect(notice?.text).toContain('Abmelden: http://status.test/');
		expect(notice?.html).toContain('Auf der Statusseite ansehen');
	});

	it('a webhook subscriber receives a signed payload', async () => {
		const hook = await startFakeVendor();
		try {
			const { ws, ctx, page } = await setup();
			const sub = await addWebhookSubscriber({
				ctx,
				vault: testVault,
				input: { pageId: page.id, url: `${hook.url}/status` }
			});
			expect(sub).toMatchObject({ type: 'webhook', status: 'confirmed' });
			await createMaintenance({
				ctx,
				notifier: subscribers(),
				input: {
					pageId: page.id,
					title: 'DB upgrade',
					from: '2030-01-01T10:00:00Z',
					to: '2030-01-01T11:00:00Z',
					notify: true
				}
			});
			await runDueDeliveries({ db, notifier });
			expect(hook.requests).toHaveLength(1);
			const req = hook.requests[0];
			expect(req?.headers['x-upstate-event']).toBe('maintenance-scheduled');
			expect(
				verifyWebhookSignature({
					secret: sub.signingSecret,
					header: String(req?.headers['x-upstate-signature']),
					body: req?.body ?? ''
				})
			).toBe(true);
			expect(JSON.parse(req?.body ?? '{}')).toMatchObject({
				version: '1',
				event: 'maintenance-scheduled',
				title: 'DB upgrade',
				from: '2030-01-01T10:00:00.000Z',
				page: { id: page.id, title: 'Acme' }
			});
			expect((await deliveries(ws.id))[0]?.status).toBe('sent');
		} finally {
			await hook.close();
		}
	});

	it('without the plan feature: notified true, nothing enqueued, subscribing is LIMIT_EXCEEDED', async () => {
		const { ws, ctx, page, slug } = await setup(TEAM_LIMITS);
		await db.pageSubscriber.create({
			data: {
				workspaceId: ws.id,
				pageId: page.id,
				email: 'old@example.com',
				tokenHash: 'h-old-' + ws.id,
				confirmedAt: new Date()
			}
		});
		expect(await report(ctx, page.id, true)).toMatchObject({ notified: true });
		expect(await deliveries(ws.id)).toHaveLength(0);
		expect(
			await codeOf(
				subscribeToStatusPage({ deps, input: { page: { slug }, reader, email: 'x@example.com' } })
			)
		).toBe("LIMIT_EXCEEDED: your plan does not include 'status-subscribers'");
		expect(
			await codeOf(
				addWebhookSubscriber({
					ctx,
					vault: testVault,
					input: { pageId: page.id, url: 'https://x.example.com' }
				})
			)
		).toBe("LIMIT_EXCEEDED: your plan does not include 'status-subscribers'");
	});

	it('exports CSV with quoting and a formula-injection guard', async () => {
		const { ws, ctx, page, api, web } = await setup();
		await db.pageSubscriber.create({
			data: {
				workspaceId: ws.id,
				pageId: page.id,
				email: '=HYPERLINK("http://evil","x")@example.com',
				componentIds: JSON.stringify([api.id, web.id]),
				tokenHash: 'h-csv-' + ws.id,
				createdAt: new Date('2026-11-01T00:00:00Z')
			}
		});
		const hook = await addWebhookSubscriber({
			ctx,
			vault: testVault,
			input: { pageId: page.id, url: 'https://hooks.example.com/a,b' }
		});
		const lines = (await exportSubscribersCsv({ ctx, input: { pageId: page.id } })).split('\r\n');
		expect(lines[0]).toBe('id,type,email,webhook_url,components,status,created_at');
		expect(lines[1]).toMatch(
			new RegExp(
				`^\\d+,email,"'=HYPERLINK\\(""http://evil"",""x""\\)@example.com",,${api.id} ${web.id},pending,2026-11-01T00:00:00.000Z$`
			)
		);
		expect(lines[2]).toMatch(
			new RegExp(`^${hook.id},webhook,,"https://hooks.example.com/a,b",,confirmed,`)
		);
		expect(lines[3]).toBe('');
		expect(['+1', '-1', '@a', '\tx', 'plain', 'a"b'].map(csvField)).toEqual([
			"'+1",
			"'-1",
			"'@a",
			"'\tx",
			'plain',
			'"a""b"'
		]);
	});

	it("another workspace's subscriber or page is NOT_FOUND", async () => {
		const a = await setup();
		const b = await setup();
		const sub = await addWebhookSubscriber({
			ctx: a.ctx,
			vault: testVault,
			input: { pageId: a.page.id, url: 'https://a.example.com' }
		});
		expect(
			await codeOf(
				removeSubscriber({ ctx: b.ctx, input: { pageId: a.page.id, subscriberId: sub.id } })
			)
		).toBe(`NOT_FOUND: subscriber ${sub.id} not found`);
		expect(
			await codeOf(
				removeSubscriber({ ctx: b.ctx, input: { pageId: b.page.id, subscriberId: sub.id } })
			)
		).toBe(`NOT_FOUND: subscriber ${sub.id} not found`);
		expect(await codeOf(listSubscribers({ ctx: b.ctx, input: { pageId: a.page.id } }))).toBe(
			`NOT_FOUND: status page ${a.page.id} not found`
		);
		expect(
			await removeSubscriber({ ctx: a.ctx, input: { pageId: a.page.id, subscriberId: sub.id } })
		).toEqual({
			id: sub.id,
			deleted: true
		});
	});

	it('the maintenance-notices job enqueues start and end once, even from overlapping runs', async () => {
		const { ws, ctx, page, slug } = await setup();
		await subscribed(slug, 'ops@example.com');
		const from = new Date(Date.now() + 3600_000);
		const to = new Date(Date.now() + 7200_000);
		const quiet = await createMaintenance({
			ctx,
			notifier: subscribers(),
			input: {
				pageId: page.id,
				title: 'Quiet',
				from: from.toISOString(),
				to: to.toISOString(),
				notify: false
			}
		});
		const m = await createMaintenance({
			ctx,
			notifier: subscribers(),
			input: {
				pageId: page.id,
				title: 'Upgrade',
				from: from.toISOString(),
				to: to.toISOString(),
				notify: true
			}
		});
		const run = (now: Date) =>
			enqueueMaintenanceNotices({ db, statusPageUrl: 'http://status.test', now });
		const events = async () =>
			(await deliveries(ws.id)).map(
				(d) => (JSON.parse(d.payload) as { notice: { event: string } }).notice.event
			);
		expect(await events()).toEqual(['maintenance-scheduled']);
		expect(await run(new Date(from.getTime() - 1000))).toMatchObject({ started: 0, ended: 0 });
		const during = new Date(from.getTime() + 1000);
		const runs = await Promise.all([run(during), run(during), run(during)]);
		expect(runs.reduce((n, r) => n + r.started, 0)).toBe(1);
		expect(runs.reduce((n, r) => n + r.enqueued, 0)).toBe(1);
		const after = new Date(to.getTime() + 1000);
		await Promise.all([run(after), run(after)]);
		expect(await run(after)).toEqual({ started: 0, ended: 0, enqueued: 0 });
		expect(await events()).toEqual([
			'maintenance-scheduled',
			'maintenance-started',
			'maintenance-ended'
		]);
		const quietRow = await db.maintenance.findUniqueOrThrow({ where: { id: quiet.id } });
		expect([quietRow.startNoticeAt, quietRow.endNoticeAt]).toEqual([null, null]);
		expect(
			(await db.maintenance.findUniqueOrThrow({ where: { id: m.id } })).endNoticeAt
		).not.toBeNull();
	});

	it('never logs the tokens of subscriber links, even without SMTP', async () => {
		const spy = vi.spyOn(console, 'log').mockImplementation(() => {});
		await createMailer({ from: 'u@test' }).send(
			subscriberConfirmMail({
				to: 'a@example.com',
				pageTitle: 'Acme',
				confirmUrl: 'http://status.test/acme/subscribe/confirm?token=SECRETTOKEN',
				unsubscribeUrl: 'http://status.test/acme/unsubscribe?token=1.SECRETMAC'
			})
		);
		const logged = spy.mock.calls.flat().join('\n');
		expect(logged).toContain('to=a@example.com');
		expect(logged).not.toContain('SECRET');
	});
});
