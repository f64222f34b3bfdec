import { sendToChannel, type NotifyEvent } from '../../notify/index.ts';
import { resolveLimits } from '../limits.ts';
import {
	openSecrets,
	readConfig,
	requireProviderAllowed
} from '../notification-channel/internal.ts';
import type { ProviderType } from '../notification-channel/providers.ts';
import type { DeliveryHandler } from './registry.ts';

const startOfMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

// SMS this process is sending or has sent whose attempts are not recorded yet (a batch records
// its attempts together after all its sends). They count with the recorded ones, so a batch of
// concurrent sends cannot pass the monthly sms-limit.
const smsInFlight = new Map<number, number>();
function holdSms(workspaceId: number): () => void {
	smsInFlight.set(workspaceId, (smsInFlight.get(workspaceId) ?? 0) + 1);
	let held = true;
	return () => {
		if (!held) return;
		held = false;
		const left = (smsInFlight.get(workspaceId) ?? 1) - 1;
		if (left > 0) smsInFlight.set(workspaceId, left);
		else smsInFlight.delete(workspaceId);
	};
}

// Kind `channel`: payload `{ event: NotifyEvent }` to the row's channel. A channel deleted since,
// a provider the plan no longer allows and the monthly `sms-limit` are final (no retry).
export const sendChannelDelivery: DeliveryHandler = async ({ db, notifier, delivery }) => {
	const event = delivery.payload.event as NotifyEvent;
	const row = await db.notificationChannel.findFirst({
		where: { id: delivery.channelId ?? -1, workspaceId: delivery.workspaceId },
		include: { workspace: { select: { limits: true } } }
	});
	if (!row)
		return {
			ok: false,
			status: 0,
			error: 'channel no longer exists',
			permanent: true,
			event: event.kind
		};
	const provider = row.providerType as ProviderType;
	const base = { event: event.kind, provider };
	const limits = resolveLimits(row.workspace.limits);
	let settings: Record<string, unknown>;
	try {
		requireProviderAllowed(limits, provider);
		settings = { ...readConfig(row).block, ...openSecrets(row, notifier.vault) };
	} catch (err) {
		return { ok: false, status: 0, error: (err as Error).message, permanent: true, ...base };
	}
	let release: (() => void) | undefined;
	if (provider === 'sms') {
		const recorded = await db.deliveryAttempt.count({
			where: {
				workspaceId: delivery.workspaceId,
				provider: 'sms',
				ok: true,
				at: { gte: startOfMonth(new Date()) }
			}
		});
		// No await between this check and the hold: concurrent handlers see each other's holds.
		const sent = recorded + (smsInFlight.get(delivery.workspaceId) ?? 0);
		if (sent >= limits['sms-limit']) {
			console.warn(
				`[delivery] refused delivery=${delivery.id} workspaceId=${delivery.workspaceId} reason=sms-limit sent=${sent} limit=${limits['sms-limit']}`
			);
			return {
				ok: false,
				status: 0,
				error: `sms-limit reached: ${limits['sms-limit']} SMS per month on this plan`,
				permanent: true,
				...base
			};
		}
		release = holdSms(delivery.workspaceId);
	}
	try {
		const result = await sendToChannel({
			channel: { id: row.id, name: row.name, providerType: provider, settings },
			event,
			deps: {
				config: notifier.config,
				mailer: notifier.mailer,
				workspaceId: delivery.workspaceId
			}
		});
		return { ...result, ...base, release };
	} catch (err) {
		release?.();
		throw err;
	}
};
