import { jsonHeaders } from '../../notify/format.ts';
import { sendRequest, signatureOf } from '../../notify/index.ts';
import type { DeliveryHandler } from '../delivery/registry.ts';
import type { SubscriberPayload } from './email-handler.ts';

// Kind `subscriber-webhook`: the notice as JSON (version 1), signed like the channel webhook
// (X-Upstate-Signature: t=<unix s>,v1=<HMAC-SHA256(secret, "<t>.<body>")>), SSRF-checked at send.
export const sendSubscriberWebhook: DeliveryHandler = async ({ db, notifier, delivery }) => {
	const { subscriberId, notice } = delivery.payload as SubscriberPayload;
	const base = { event: notice.event, provider: 'subscriber-webhook' };
	const sub = await db.pageSubscriber.findFirst({
		where: { id: subscriberId, workspaceId: delivery.workspaceId, unsubscribedAt: null },
		select: { webhookUrl: true, secret: true }
	});
	if (!sub?.webhookUrl || !sub.secret)
		return { ok: false, status: 0, error: 'no longer subscribed', permanent: true, ...base };
	let secret: string;
	try {
		secret = String(notifier.vault.open(sub.secret).signingSecret ?? '');
	} catch {
		return { ok: false, status: 0, error: 'signing secret unreadable', permanent: true, ...base };
	}
	const body = JSON.stringify({
		version: '1',
		event: notice.event,
		at: notice.at,
		page: notice.page,
		title: notice.title,
		status: notice.status,
		message: notice.message,
		url: notice.url,
		report_id: notice.reportId,
		update_id: notice.updateId,
		maintenance_id: notice.maintenanceId,
		from: notice.from,
		to: notice.to,
		component_ids: notice.componentIds
	});
	const t = Math.floor(Date.now() / 1000);
	const result = await sendRequest({
		url: sub.webhookUrl,
		headers: {
			...jsonHeaders,
			'x-upstate-event': notice.event,
			'x-upstate-signature': `t=${t},v1=${signatureOf(secret, t, body)}`
		},
		body,
		timeoutMs: notifier.config.timeoutMs,
		guard: !notifier.config.allowPrivateTargets
	});
	return { ...result, ...base };
};
