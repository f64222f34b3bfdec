import type { SubscriberNotice } from '../../mail/templates/subscriber.ts';
import { enqueueDeliveries } from '../delivery/index.ts';
import type { Tx } from '../transaction.ts';
import { matchesComponents, parseComponentIds } from './internal.ts';

// One outbox row per confirmed subscriber of the page whose component filter matches, in one
// insert; the dedupe key `subscriber:<id>:<source>:<event>` makes a repeat a no-op.
export async function enqueueSubscriberNotices(
	tx: Tx,
	args: { workspaceId: number; source: string; notice: SubscriberNotice }
): Promise<number> {
	const { notice } = args;
	const subscribers = await tx.pageSubscriber.findMany({
		where: {
			workspaceId: args.workspaceId,
			pageId: notice.page.id,
			confirmedAt: { not: null },
			unsubscribedAt: null
		},
		select: { id: true, webhookUrl: true, componentIds: true }
	});
	return enqueueDeliveries(
		tx,
		subscribers
			.filter((s) => matchesComponents(parseComponentIds(s.componentIds), notice.componentIds))
			.map((s) => ({
				workspaceId: args.workspaceId,
				kind: s.webhookUrl ? 'subscriber-webhook' : 'subscriber-email',
				dedupeKey: `subscriber:${s.id}:${args.source}:${notice.event}`,
				payload: { subscriberId: s.id, notice }
			}))
	);
}
