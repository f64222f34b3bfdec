import { subscriberNoticeMail, type SubscriberNotice } from '../../mail/templates/subscriber.ts';
import type { DeliveryHandler } from '../delivery/registry.ts';
import { unsubscribeUrl } from './internal.ts';

export type SubscriberPayload = { subscriberId: number; notice: SubscriberNotice };

// Kind `subscriber-email`: one notice to one confirmed subscriber, with the one-click
// unsubscribe link and headers. Someone who unsubscribed since the enqueue gets nothing.
export const sendSubscriberEmail: DeliveryHandler = async ({ db, notifier, delivery }) => {
	const { subscriberId, notice } = delivery.payload as SubscriberPayload;
	const base = { event: notice.event, provider: 'subscriber-email' };
	const sub = await db.pageSubscriber.findFirst({
		where: {
			id: subscriberId,
			workspaceId: delivery.workspaceId,
			confirmedAt: { not: null },
			unsubscribedAt: null
		},
		select: { email: true, page: { select: { defaultLocale: true } } }
	});
	if (!sub?.email)
		return { ok: false, status: 0, error: 'no longer subscribed', permanent: true, ...base };
	try {
		await notifier.mailer.send({
			...subscriberNoticeMail({
				to: sub.email,
				notice,
				unsubscribeUrl: unsubscribeUrl(notice.page.url, notifier.linkSecret, subscriberId),
				locale: sub.page.defaultLocale
			}),
			workspaceId: delivery.workspaceId
		});
		return { ok: true, status: 250, ...base };
	} catch (err) {
		return { ok: false, status: 0, error: `smtp: ${(err as Error).message}`, ...base };
	}
};
