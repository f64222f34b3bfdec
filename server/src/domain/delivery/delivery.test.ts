import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../db/client.ts';
import { verifyWebhookSignature } from '../../notify/index.ts';
import { alertingWorkspace, systemCtx, testNotifier, testVault } from '../../../test/alerting.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { startFakeVendor } from '../../../test/fake-vendor.ts';
import { recordStatusChange } from '../incident/index.ts';
import { createNotificationChannel } from '../notification-channel/index.ts';
import { withTransaction } from '../transaction.ts';
import {
	MAX_ATTEMPTS,
	createDeliveryWorker,
	enqueueDelivery,
	listDeliveryAttempts,
	retryDelayMs,
	runDueDeliveries,
	type DeliveryWorker
} from './index.ts';

let db: Db;
let url: string;
let clock = Date.parse('2026-11-22T12:00:00Z');
beforeAll(async () => {
	({ db, url } = await createTestDb());
	vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

const notifier = testNotifier();
const FAST = { baseDelayMs: 5 };
const workers: DeliveryWorker[] = [];
afterAll(() => Promise.all(workers.map((w) => w.stop())));
const startWorker = (onDb: Db = db) => {
	const w = createDeliveryWorker({ db: onDb, notifier, pollMs: 10, options: FAST });
	workers.push(w);
	w.start();
	return w;
};
async function until(fn: () => Promise<boolean>, ms = 10_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await fn())) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, 10));
	}
}
const failAlert = (ctx: Parameters<typeof systemCtx>[0], monitorId: number) =>
	recordStatusChange({
		ctx: systemCtx(ctx),
		input: {
			monitorId,
			from: 'active',
			to: 'error',
			error: 'HTTP 500',
			at: new Date((clock += 60_000)).toISOString()
		},
		dashboardUrl: 'http://dash.test'
	});
const statusOf = async (workspaceId: number) =>
	(await db.delivery.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } })).map((d) => [
		d.status,
		d.attempts
	]);

describe('delivery outbox', () => {
	it('retries a failing channel with backoff: three attempts in the log, one delivery', async () => {
		let calls = 0;
		const hook = await startFakeVendor(() => ({ status: ++calls <= 2 ? 503 : 200 }));
		try {
			const { ws, ctx, monitor, channel, signingSecret } = await alertingWorkspace(
				db,
				`${hook.url}/hook`
			);
			const { incidentId } = await failAlert(ctx, monitor.id);
			startWorker().kick();
			await until(async () => (await statusOf(ws.id))[0]?.[0] === 'sent');
			expect(await statusOf(ws.id)).toEqual([['sent', 3]]);
			expect(hook.requests).toHaveLength(3);
			const last = hook.requests[2];
			expect(last?.headers['x-upstate-event']).toBe('alert');
			expect(
				verifyWebhookSignature({
					secret: signingSecret,
					header: String(last?.headers['x-upstate-signature']),
					body: last?.body ?? ''
				})
			).toBe(true);
			expect(JSON.parse(last?.body ?? '{}')).toMatchObject({
				event: 'alert',
				incident_id: incidentId,
				error: 'HTTP 500',
				monitor: { id: monitor.id, name: 'API' }
			});
			const log = await listDeliveryAttempts({
				ctx,
				input: { notificationChannelId: channel.id }
			});
			expect(log.data.map((a) => [a.attempt, a.ok, a.status, a.event, a.incidentId])).toEqual([
				[3, true, 200, 'alert', incidentId],
				[2, false, 503, 'alert', incidentId],
				[1, false, 503, 'alert', incidentId]
			]);
			expect(log.data[2]?.error).toMatch(/503/);
		} finally {
			await hook.close();
		}
	});

	it('sends what a previous process left pending once, after a restart over the same file', async () => {
		const hook = await startFakeVendor();
		try {
			const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/hook`);
			await failAlert(ctx, monitor.id); // enqueued; no worker ran in "the old process"
			// A second alert was claimed by a process that died mid-send: its lock has expired.
			const other = await alertingWorkspace(db, `${hook.url}/hook2`);
			await failAlert(other.ctx, other.monitor.id);
			await db.delivery.updateMany({
				where: { workspaceId: other.ws.id },
				data: { status: 'sending', attempts: 1, lockedUntil: new Date(Date.now() - 1000) }
			});
			const restarted = createDb({ url });
			const [a, b] = [startWorker(restarted), startWorker(restarted)];
			await until(async () => hook.requests.length >= 2);
			await Promise.all([a.idle(), b.idle()]);
			await new Promise((r) => setTimeout(r, 100)); // more polls: still nothing more to send
			expect(hook.requests.map((r) => r.path).sort()).toEqual(['/hook', '/hook2']);
			expect(await statusOf(ws.id)).toEqual([['sent', 1]]);
			expect(await statusOf(other.ws.id)).toEqual([['sent', 2]]);
		} finally {
			await hook.close();
		}
	});

	it('deduplicates per (channel, incident, event) and never sends one row from two runs', async () => {
		const hook = await startFakeVendor();
		try {
			const { ws, ctx, monitor, channel } = await alertingWorkspace(db, `${hook.url}/hook`);
			const { incidentId } = await failAlert(ctx, monitor.id);
			const again = await withTransaction(ctx, (tx) =>
				enqueueDelivery(tx, {
					workspaceId: ws.id,
					kind: 'channel',
					dedupeKey: `channel:${channel.id}:incident:${incidentId}:alert`,
					payload: {},
					channelId: channel.id
				})
			);
			expect(again).toBe(false);
			const runs = await Promise.all(
				[1, 2, 3, 4].map(() => runDueDeliveries({ db, notifier, options: FAST }))
			);
			expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
			expect(hook.requests).toHaveLength(1);
			expect(await statusOf(ws.id)).toEqual([['sent', 1]]);
		} finally {
			await hook.close();
		}
	});

	it(`backs off exponentially and gives up after ${MAX_ATTEMPTS} attempts`, async () => {
		expect([1, 2, 3, 7].map((n) => retryDelayMs(n))).toEqual([30_000, 60_000, 120_000, 1_920_000]);
		const hook = await startFakeVendor(() => ({ status: 500 }));
		try {
			const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/hook`);
			await failAlert(ctx, monitor.id);
			startWorker().kick();
			await until(async () => (await statusOf(ws.id))[0]?.[0] === 'failed');
			expect(await statusOf(ws.id)).toEqual([['failed', MAX_ATTEMPTS]]);
			expect(hook.requests).toHaveLength(MAX_ATTEMPTS);
		} finally {
			await hook.close();
		}
	});

	it('counts SMS against the monthly sms-limit and refuses past it without retrying', async () => {
		const twilio = await startFakeVendor(() => ({ status: 201, body: { sid: 'SM1' } }));
		try {
			const { ws, ctx, monitor, sms, smsNotifier } = await smsWorkspace(twilio.url);
			// sms-limit is 2: alert, recovery, alert → the third is refused.
			for (const [from, to] of [
				['active', 'error'],
				['error', 'active'],
				['active', 'error']
			] as const) {
				await recordStatusChange({
					ctx: systemCtx(ctx),
					input: { monitorId: monitor.id, from, to, at: new Date((clock += 60_000)).toISOString() },
					dashboardUrl: 'http://dash.test'
				});
				await runDueDeliveries({ db, notifier: smsNotifier, options: FAST });
			}
			expect(twilio.requests).toHaveLength(2);
			expect(twilio.requests[0]?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
			expect(await statusOf(ws.id)).toEqual([
				['sent', 1],
				['sent', 1],
				['failed', 1]
			]);
			const log = await listDeliveryAttempts({ ctx, input: { notificationChannelId: sms.id } });
			expect(log.data[0]).toMatchObject({
				ok: false,
				status: 0,
				error: 'sms-limit reached: 2 SMS per month on this plan'
			});
		} finally {
			await twilio.close();
		}
	});

	it('holds the sms-limit within one batch of concurrent sends', async () => {
		const twilio = await startFakeVendor(() => ({ status: 201, body: { sid: 'SM1' } }));
		try {
			const { ws, ctx, monitor, smsNotifier } = await smsWorkspace(twilio.url);
			// sms-limit is 2; five messages wait and go out in one batch, all sent at once.
			for (const [from, to] of [
				['active', 'error'],
				['error', 'active'],
				['active', 'error'],
				['error', 'active'],
				['active', 'error']
			] as const)
				await recordStatusChange({
					ctx: systemCtx(ctx),
					input: { monitorId: monitor.id, from, to, at: new Date((clock += 60_000)).toISOString() },
					dashboardUrl: 'http://dash.test'
				});
			const run = await runDueDeliveries({ db, notifier: smsNotifier, options: FAST });
			expect(run).toMatchObject({ claimed: 5, sent: 2, failed: 3 });
			expect(twilio.requests).toHaveLength(2);
			// The next batch counts the two recorded sends: nothing more goes out.
			await recordStatusChange({
				ctx: systemCtx(ctx),
				input: {
					monitorId: monitor.id,
					from: 'error',
					to: 'active',
					at: new Date((clock += 60_000)).toISOString()
				},
				dashboardUrl: 'http://dash.test'
			});
			await runDueDeliveries({ db, notifier: smsNotifier, options: FAST });
			expect(twilio.requests).toHaveLength(2);
			expect((await statusOf(ws.id)).filter(([status]) => status === 'sent')).toHaveLength(2);
		} finally {
			await twilio.close();
		}
	});

	it("returns NOT_FOUND for another workspace's channel log", async () => {
		const a = await alertingWorkspace(db, 'https://a.example.com');
		const b = await alertingWorkspace(db, 'https://b.example.com');
		expect(
			await codeOf(
				listDeliveryAttempts({ ctx: b.ctx, input: { notificationChannelId: a.channel.id } })
			)
		).toBe(`NOT_FOUND: notification channel ${a.channel.id} not found`);
	});
});

// A workspace (sms-limit 2) whose failing monitor alerts only an SMS channel, sent through a fake
// Twilio at `twilioUrl`.
async function smsWorkspace(twilioUrl: string) {
	const smsNotifier = testNotifier({
		NOTIFY_BASE_URLS: JSON.stringify({ twilio: twilioUrl }),
		TWILIO_ACCOUNT_SID: 'AC123',
		TWILIO_AUTH_TOKEN: 'tok',
		TWILIO_FROM: '+15550000000'
	});
	const { ws, ctx, monitor } = await alertingWorkspace(db, 'https://unused.example.com');
	await db.notificationChannelMonitor.deleteMany({ where: { monitorId: monitor.id } });
	const sms = await createNotificationChannel({
		ctx,
		input: {
			provider_type: 'sms',
			monitor_ids: [monitor.id],
			sms: { phone_number: '+15551234567' }
		},
		vault: testVault
	});
	return { ws, ctx, monitor, sms, smsNotifier };
}
