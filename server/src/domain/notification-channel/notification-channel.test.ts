import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey, TEAM_LIMITS } from '../../../test/factories.ts';
import { startFakeVendor } from '../../../test/fake-vendor.ts';
import { loadConfig } from '../../config.ts';
import { createMailer } from '../../mail/index.ts';
import type { Notifier } from '../../notify/index.ts';
import { createVault } from '../../notify/vault.ts';
import type { ServiceContext } from '../context.ts';
import { createMonitor, getMonitor } from '../monitor/index.ts';
import {
	createNotificationChannel,
	getNotificationChannel,
	listChannelsForMonitor,
	listNotificationChannels,
	removeNotificationChannel,
	sendTestNotification,
	updateNotificationChannel,
	type CreateNotificationChannelInput
} from './index.ts';

let db: Db;
const vault = createVault('test-auth-secret');
const ALL_CHANNELS = {
	...TEAM_LIMITS,
	'notification-channels': 50,
	pagerduty: true,
	opsgenie: true,
	'grafana-oncall': true,
	whatsapp: true,
	sms: true
};
beforeAll(async () => {
	({ db } = await createTestDb());
});

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/XXXXsecretWXYZ';
const monitorIn = (ctx: ServiceContext) =>
	createMonitor({ ctx, input: { type: 'tcp', name: 'db', periodicity: '1m', uri: 'db:5432' } });
const create = (ctx: ServiceContext, input: CreateNotificationChannelInput) =>
	createNotificationChannel({ ctx, input, vault });
const workspace = async (limits: Record<string, unknown> = ALL_CHANNELS) =>
	ctxFor(db, await createWorkspace(db, { limits }));

describe('notification channel service', () => {
	it('creates, wires monitors, masks secrets in get, list and audit, and keeps a secret on edit', async () => {
		const ctx = await workspace();
		const [a, b] = [await monitorIn(ctx), await monitorIn(ctx)];
		const created = await create(ctx, {
			name: 'Ops',
			provider_type: 'slack',
			monitor_ids: [a.id],
			slack: { webhook_url: SLACK_URL }
		});
		expect(created).toMatchObject({
			name: 'Ops',
			provider_type: 'slack',
			monitor_ids: [a.id],
			monitors: [{ id: a.id, name: 'db' }],
			slack: {},
			secret_hints: { webhook_url: '…WXYZ' }
		});
		const got = await getNotificationChannel({ ctx, input: { notificationChannelId: created.id } });
		const list = await listNotificationChannels({ ctx, input: { perPage: 200 } });
		expect(list.data).toEqual([got]);
		expect(
			(await getMonitor({ ctx, input: { monitorId: a.id } })).notification_channel_ids
		).toEqual([created.id]);

		const renamed = await updateNotificationChannel({
			ctx,
			input: { notificationChannelId: created.id, name: 'Ops 2', monitor_ids: [b.id], slack: {} },
			vault
		});
		expect(renamed).toMatchObject({ name: 'Ops 2', monitor_ids: [b.id] });
		expect(renamed.secret_hints).toEqual({ webhook_url: '…WXYZ' });
		const row = await db.notificationChannel.findUniqueOrThrow({ where: { id: created.id } });
		expect(row.secrets).not.toContain('secret');
		expect(vault.open(row.secrets)).toEqual({ webhook_url: SLACK_URL });

		const rotated = await updateNotificationChannel({
			ctx,
			input: {
				notificationChannelId: created.id,
				slack: { webhook_url: 'https://hooks.slack.com/services/T1/B1/newone1234' }
			},
			vault
		});
		expect(rotated.secret_hints).toEqual({ webhook_url: '…1234' });
		await removeNotificationChannel({ ctx, input: { notificationChannelId: created.id } });

		const audit = await db.auditLog.findMany({
			where: { workspaceId: ctx.workspace.id, entityType: 'notification_channel' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((x) => x.action)).toEqual([
			'notification_channel.create',
			'notification_channel.update',
			'notification_channel.update',
			'notification_channel.delete'
		]);
		expect(JSON.parse(audit[0].after ?? '{}')).toMatchObject({
			secret_hints: { webhook_url: '…WXYZ' }
		});
		expect(JSON.parse(audit[1].changedFields)).toEqual(['monitor_ids', 'name']);
		expect(JSON.stringify(audit)).not.toContain('XXXXsecret');
		expect(JSON.stringify(audit)).not.toContain('newone');
	});

	it('shows a webhook signing secret once and keeps it, and hides header values', async () => {
		const ctx = await workspace();
		const created = await create(ctx, {
			provider_type: 'webhook',
			webhook: {
				endpoint: 'https://example.com/hook',
				headers: [{ key: 'Authorization', value: 'Bearer hunter2-token' }]
			}
		});
		expect(created.signing_secret).toMatch(/^whsec_/);
		expect(created.webhook).toEqual({ endpoint: 'https://example.com/hook' });
		expect(created.secret_hints).toEqual({
			headers: 'Authorization',
			signing_secret: `…${created.signing_secret?.slice(-4)}`
		});
		const got = await getNotificationChannel({ ctx, input: { notificationChannelId: created.id } });
		expect(JSON.stringify(got)).not.toContain('hunter2');
		expect(got).not.toHaveProperty('signing_secret');
		const edited = await updateNotificationChannel({
			ctx,
			input: { notificationChannelId: created.id, webhook: { endpoint: 'https://example.org/h' } },
			vault
		});
		expect(edited.signing_secret).toBeUndefined();
		const row = await db.notificationChannel.findUniqueOrThrow({ where: { id: created.id } });
		expect(vault.open(row.secrets)).toEqual({
			headers: [{ key: 'Authorization', value: 'Bearer hunter2-token' }],
			signing_secret: created.signing_secret
		});
	});

	it.each([
		[{ provider_type: 'slack' }, 'VALIDATION: slack: required for provider_type slack'],
		[
			{
				provider_type: 'slack',
				slack: { webhook_url: SLACK_URL },
				discord: { webhook_url: SLACK_URL }
			},
			'VALIDATION: discord: a discord block does not match provider_type slack'
		],
		[
			{ provider_type: 'slack', slack: { webhook_url: 'not a url' } },
			/^VALIDATION: slack\.webhook_url: /
		],
		[
			{ provider_type: 'slack', slack: { webhook_url: SLACK_URL, channel: '#x' } },
			/^VALIDATION: slack: Unrecognized key/
		],
		[{ provider_type: 'discord', discord: {} }, /^VALIDATION: discord\.webhook_url: /],
		[{ provider_type: 'email', email: { email: 'nobody' } }, /^VALIDATION: email\.email: /],
		[{ provider_type: 'pagerduty', pagerduty: {} }, /^VALIDATION: pagerduty\.integration_key: /],
		[
			{ provider_type: 'opsgenie', opsgenie: { api_key: 'k', region: 'ap' } },
			/^VALIDATION: opsgenie\.region: /
		],
		[
			{ provider_type: 'webhook', webhook: { endpoint: 'ftp://x.example' } },
			'VALIDATION: webhook.endpoint: must be an http(s) URL'
		],
		[
			{
				provider_type: 'webhook',
				webhook: { endpoint: 'https://x.example', headers: [{ key: 'Bad Name', value: 'v' }] }
			},
			'VALIDATION: webhook.headers.0.key: must be a valid HTTP header name'
		],
		[
			{ provider_type: 'telegram', telegram: { chat_id: 'me' } },
			'VALIDATION: telegram.chat_id: must be a numeric chat id or @channelname'
		],
		[
			{ provider_type: 'sms', sms: { phone_number: '0123' } },
			'VALIDATION: sms.phone_number: must be an E.164 phone number such as +14155550100'
		],
		[{ provider_type: 'whatsapp', whatsapp: {} }, /^VALIDATION: whatsapp\.phone_number: /],
		[{ provider_type: 'google_chat', google_chat: {} }, /^VALIDATION: google_chat\.webhook_url: /],
		[
			{ provider_type: 'grafana_oncall', grafana_oncall: { webhook_url: 'x' } },
			/^VALIDATION: grafana_oncall\.webhook_url: /
		],
		[
			{ provider_type: 'ntfy', ntfy: { topic: 'a b' } },
			'VALIDATION: ntfy.topic: must be 1-64 letters, digits, - or _'
		],
		[
			{ provider_type: 'ntfy', ntfy: { topic: 'ok', server_url: 'nope' } },
			/^VALIDATION: ntfy\.server_url: /
		],
		[{ provider_type: 'ms_teams', ms_teams: {} }, /^VALIDATION: ms_teams\.webhook_url: /],
		[{ provider_type: 'carrier_pigeon' }, /^VALIDATION: provider_type: /]
	])('names the field for %j', async (input, expected) => {
		const ctx = await workspace();
		const code = await codeOf(create(ctx, input as CreateNotificationChannelInput));
		if (typeof expected === 'string') expect(code).toBe(expected);
		else expect(code).toMatch(expected);
	});

	it('validates updates against the stored provider and bounds perPage at 200', async () => {
		const ctx = await workspace();
		const ch = await create(ctx, {
			provider_type: 'opsgenie',
			opsgenie: { api_key: 'og-key-0001', region: 'us' }
		});
		const id = ch.id;
		expect(
			await codeOf(
				updateNotificationChannel({ ctx, input: { notificationChannelId: id, slack: {} }, vault })
			)
		).toBe('VALIDATION: slack: a slack block does not match provider_type opsgenie');
		expect(
			await codeOf(
				updateNotificationChannel({
					ctx,
					input: { notificationChannelId: id, opsgenie: { region: 'mars' as 'eu' } },
					vault
				})
			)
		).toMatch(/^VALIDATION: opsgenie\.region/);
		// Switching provider needs the new provider's whole block, secrets included.
		expect(
			await codeOf(
				updateNotificationChannel({
					ctx,
					input: { notificationChannelId: id, provider_type: 'pagerduty', pagerduty: {} },
					vault
				})
			)
		).toMatch(/^VALIDATION: pagerduty\.integration_key/);
		const switched = await updateNotificationChannel({
			ctx,
			input: { notificationChannelId: id, opsgenie: { region: 'eu' } },
			vault
		});
		expect(switched).toMatchObject({
			opsgenie: { region: 'eu' },
			secret_hints: { api_key: '…0001' }
		});
		expect(await codeOf(listNotificationChannels({ ctx, input: { perPage: 201 } }))).toMatch(
			/^VALIDATION: perPage/
		);
	});

	it('clears an optional field with null and accepts a numeric Telegram chat id', async () => {
		const ctx = await workspace();
		const ntfy = await create(ctx, {
			provider_type: 'ntfy',
			ntfy: { topic: 'ops', server_url: 'https://ntfy.example.com', token: 'tk_123456' }
		});
		expect(ntfy).toMatchObject({
			ntfy: { topic: 'ops', server_url: 'https://ntfy.example.com' },
			secret_hints: { token: '…3456' }
		});
		const cleared = await updateNotificationChannel({
			ctx,
			input: { notificationChannelId: ntfy.id, ntfy: { token: null, server_url: null } },
			vault
		});
		expect(cleared).toMatchObject({ ntfy: { topic: 'ops' }, secret_hints: {} });
		expect(cleared.ntfy).toEqual({ topic: 'ops' });
		const telegram = await create(ctx, {
			provider_type: 'telegram',
			telegram: { chat_id: -1001234567 as unknown as string }
		});
		expect(telegram.telegram).toEqual({ chat_id: '-1001234567' });
	});

	it('enforces the plan keys, naming the key', async () => {
		const off = await workspace({ ...TEAM_LIMITS, notifications: false });
		expect(
			await codeOf(create(off, { provider_type: 'email', email: { email: 'a@example.com' } }))
		).toBe("LIMIT_EXCEEDED: your plan does not include 'notifications'");
		const one = await workspace({ ...TEAM_LIMITS, 'notification-channels': 1 });
		await create(one, { provider_type: 'email', email: { email: 'a@example.com' } });
		expect(
			await codeOf(create(one, { provider_type: 'email', email: { email: 'b@example.com' } }))
		).toBe("LIMIT_EXCEEDED: limit 'notification-channels' reached: your plan allows 1");
		const free = await workspace({ ...TEAM_LIMITS, 'notification-channels': 10 });
		const gated: Array<[CreateNotificationChannelInput, string]> = [
			[{ provider_type: 'pagerduty', pagerduty: { integration_key: 'k' } }, 'pagerduty'],
			[{ provider_type: 'opsgenie', opsgenie: { api_key: 'k', region: 'eu' } }, 'opsgenie'],
			[
				{ provider_type: 'grafana_oncall', grafana_oncall: { webhook_url: 'https://g.example/x' } },
				'grafana-oncall'
			],
			[{ provider_type: 'whatsapp', whatsapp: { phone_number: '+14155550100' } }, 'whatsapp'],
			[{ provider_type: 'sms', sms: { phone_number: '+14155550100' } }, 'sms']
		];
		for (const [input, key] of gated)
			expect(await codeOf(create(free, input))).toBe(
				`LIMIT_EXCEEDED: your plan does not include '${key}'`
			);
		const email = await create(free, { provider_type: 'email', email: { email: 'a@example.com' } });
		expect(
			await codeOf(
				updateNotificationChannel({
					ctx: free,
					input: {
						notificationChannelId: email.id,
						provider_type: 'sms',
						sms: { phone_number: '+14155550100' }
					},
					vault
				})
			)
		).toBe("LIMIT_EXCEEDED: your plan does not include 'sms'");
	});

	it('rejects read-only key', async () => {
		const ws = await createWorkspace(db, { limits: ALL_CHANNELS });
		const ctx = ctxFor(db, ws, readKey());
		expect(
			await codeOf(create(ctx, { provider_type: 'email', email: { email: 'a@example.com' } }))
		).toMatch(/^FORBIDDEN/);
		const ch = await create(ctxFor(db, ws), {
			provider_type: 'email',
			email: { email: 'a@example.com' }
		});
		expect(
			await codeOf(removeNotificationChannel({ ctx, input: { notificationChannelId: ch.id } }))
		).toMatch(/^FORBIDDEN/);
		expect((await listNotificationChannels({ ctx })).data).toHaveLength(1);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await workspace();
		const theirs = await workspace();
		const ch = await create(theirs, { provider_type: 'email', email: { email: 'a@example.com' } });
		const notFound = `NOT_FOUND: notification channel ${ch.id} not found`;
		const input = { notificationChannelId: ch.id };
		expect(await codeOf(getNotificationChannel({ ctx: mine, input }))).toBe(notFound);
		expect(
			await codeOf(updateNotificationChannel({ ctx: mine, input: { ...input, name: 'x' }, vault }))
		).toBe(notFound);
		expect(await codeOf(removeNotificationChannel({ ctx: mine, input }))).toBe(notFound);
		const theirMonitor = await monitorIn(theirs);
		expect(
			await codeOf(
				create(mine, {
					provider_type: 'email',
					email: { email: 'a@example.com' },
					monitor_ids: [theirMonitor.id]
				})
			)
		).toBe(`NOT_FOUND: monitor ${theirMonitor.id} not found`);
		expect((await listNotificationChannels({ ctx: mine })).data).toEqual([]);
	});

	it('leaves nothing behind on invalid input', async () => {
		const ctx = await workspace();
		expect(
			await codeOf(
				create(ctx, {
					provider_type: 'email',
					email: { email: 'a@example.com' },
					monitor_ids: [999999]
				})
			)
		).toMatch(/^NOT_FOUND/);
		expect(
			await codeOf(create(ctx, { provider_type: 'slack', slack: { webhook_url: 'x' } }))
		).toMatch(/^VALIDATION/);
		expect(await db.notificationChannel.count({ where: { workspaceId: ctx.workspace.id } })).toBe(
			0
		);
		expect(await db.auditLog.count({ where: { workspaceId: ctx.workspace.id } })).toBe(0);
	});
});

describe('sendTestNotification', () => {
	let slack: Awaited<ReturnType<typeof startFakeVendor>>;
	let notifier: Notifier;
	beforeAll(async () => {
		slack = await startFakeVendor(() => ({ status: 200 }));
		const config = loadConfig({
			DATA_DIR: '/tmp/upstate-notify-test',
			AUTH_SECRET: 'x',
			NOTIFY_ALLOW_PRIVATE_TARGETS: 'true'
		});
		notifier = {
			vault,
			config: config.notify,
			mailer: createMailer(config.mail),
			dashboardUrl: 'https://upstate.example.com',
			statusPageUrl: 'https://status.example.com',
			linkSecret: 'x'
		};
	});
	afterAll(() => slack.close());

	it('sends a test event with the wired monitor, returns the vendor status and audits it', async () => {
		const ctx = await workspace();
		const monitor = await monitorIn(ctx);
		const ch = await createNotificationChannel({
			ctx,
			input: {
				provider_type: 'slack',
				monitor_ids: [monitor.id],
				slack: { webhook_url: `${slack.url}/services/T/B/test` }
			},
			vault,
			allowPrivateTargets: true // the fake vendor listens on 127.0.0.1
		});
		const input = { notificationChannelId: ch.id };
		expect(await sendTestNotification({ ctx, input, notifier })).toEqual({ ok: true, status: 200 });
		expect(slack.requests.map((r) => [r.method, r.path])).toEqual([['POST', '/services/T/B/test']]);
		expect(JSON.parse(slack.requests[0].body).text).toBe('Test notification from Upstate (db)');
		expect(
			await db.auditLog.count({
				where: { workspaceId: ctx.workspace.id, action: 'notification_channel.test' }
			})
		).toBe(1);
		expect(
			await codeOf(sendTestNotification({ ctx: { ...ctx, actor: readKey() }, input, notifier }))
		).toMatch(/^FORBIDDEN/);
		const other = await workspace();
		expect(await codeOf(sendTestNotification({ ctx: other, input, notifier }))).toBe(
			`NOT_FOUND: notification channel ${ch.id} not found`
		);
		const rotated = { ...notifier, vault: createVault('another-auth-secret') };
		expect(await codeOf(sendTestNotification({ ctx, input, notifier: rotated }))).toBe(
			`PRECONDITION_FAILED: notification channel ${ch.id} has secrets sealed with a different AUTH_SECRET: re-enter them`
		);
		expect(
			await codeOf(
				updateNotificationChannel({ ctx, input: { ...input, slack: {} }, vault: rotated.vault })
			)
		).toMatch(/^VALIDATION: slack\.webhook_url/);
		await updateNotificationChannel({
			ctx,
			input: { ...input, slack: { webhook_url: `${slack.url}/services/T/B/again` } },
			vault: rotated.vault,
			allowPrivateTargets: true
		});
		expect(await sendTestNotification({ ctx, input, notifier: rotated })).toEqual({
			ok: true,
			status: 200
		});
	});

	it('is gated by the provider plan key even for an existing channel', async () => {
		const ws = await createWorkspace(db, { limits: ALL_CHANNELS });
		const ch = await create(ctxFor(db, ws), {
			provider_type: 'sms',
			sms: { phone_number: '+14155550100' }
		});
		const downgraded = ctxFor(db, {
			...ws,
			limits: JSON.stringify({ ...ALL_CHANNELS, sms: false })
		});
		expect(
			await codeOf(
				sendTestNotification({ ctx: downgraded, input: { notificationChannelId: ch.id }, notifier })
			)
		).toBe("LIMIT_EXCEEDED: your plan does not include 'sms'");
	});
});

describe('listChannelsForMonitor', () => {
	it('returns the wired channels with their secrets for delivery, skipping ones the plan disallows', async () => {
		const ws = await createWorkspace(db, { limits: ALL_CHANNELS });
		const ctx = ctxFor(db, ws);
		const [a, b] = [await monitorIn(ctx), await monitorIn(ctx)];
		const slack = await create(ctx, {
			name: 'chat',
			provider_type: 'slack',
			monitor_ids: [a.id],
			slack: { webhook_url: SLACK_URL }
		});
		const sms = await create(ctx, {
			provider_type: 'sms',
			monitor_ids: [a.id, b.id],
			sms: { phone_number: '+14155550100' }
		});
		expect(
			await listChannelsForMonitor({ db, workspace: ctx.workspace, monitorId: a.id, vault })
		).toEqual([
			{ id: slack.id, name: 'chat', providerType: 'slack', settings: { webhook_url: SLACK_URL } },
			{ id: sms.id, name: '', providerType: 'sms', settings: { phone_number: '+14155550100' } }
		]);
		const downgraded = ctxFor(db, {
			...ws,
			limits: JSON.stringify({ ...ALL_CHANNELS, sms: false })
		});
		expect(
			await listChannelsForMonitor({ db, workspace: downgraded.workspace, monitorId: b.id, vault })
		).toEqual([]);
		const other = await workspace();
		expect(
			await listChannelsForMonitor({ db, workspace: other.workspace, monitorId: a.id, vault })
		).toEqual([]);
	});
});
