import type { SubscriberNotice } from '../../mail/templates/subscriber.ts';
import { enqueueDeliveries } from '../delivery/index.ts';
import type { Tx } from '../transaction.ts';
import { matchesComponents, parseComponentIds } from './internal.ts';

// One outbox row per confirmed subscriber of the page whose component filter matches, in one
// insert; the dedupe key `subscriber:<id>:<source>:<event>` makes a repeat a no-op. Mail goes
// only where the page itself may be read: an unpublished page notifies nobody, and on an
// email-domain page only addresses at its allowed domains hear of it (the list may have
// changed since they subscribed; webhooks are added by members and kept).
export async function enqueueSubscriberNotices(
	tx: Tx,
	args: { workspaceId: number; source: string; notice: SubscriberNotice }
): Promise<number> {
	const { notice } = args;
	const page = await tx.statusPage.findUnique({
		where: { id: notice.page.id },
		select: { published: true, accessType: true, authEmailDomains: true }
	});
	if (!page?.published) return 0;
	const domains =
		page.accessType === 'email-domain'
			? new Set((JSON.parse(page.authEmailDomains) as string[]).map((d) => d.toLowerCase()))
			: null;
	const mayRead = (email: string | null) =>
		!domains || email === null || domains.has(email.split('@')[1]?.toLowerCase() ?? '');
	const subscribers = await tx.pageSubscriber.findMany({
		where: {
			workspaceId: args.workspaceId,
			pageId: notice.page.id,
			confirmedAt: { not: null },
			unsubscribedAt: null
		},
		select: { id: true, email: true, webhookUrl: true, componentIds: true }
	});
	return enqueueDeliveries(
		tx,
		subscribers
			.filter((s) => mayRead(s.webhookUrl ? null : s.email))
			.filter((s) => matchesComponents(parseComponentIds(s.componentIds), notice.componentIds))
			.map((s) => ({
				workspaceId: args.workspaceId,
				kind: s.webhookUrl ? 'subscriber-webhook' : 'subscriber-email',
				dedupeKey: `subscriber:${s.id}:${args.source}:${notice.event}`,
				payload: { subscriberId: s.id, notice }
			}))
	);
}
