import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getSubscriberInWorkspace, toSubscriberOutput } from './internal.ts';
import { SubscriberIdInput } from './schemas.ts';

// Removes a subscriber; outbox rows already queued for it fail at send ("no longer subscribed").
export async function removeSubscriber(args: {
	ctx: ServiceContext;
	input: SubscriberIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(SubscriberIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getSubscriberInWorkspace({
			tx,
			id: input.subscriberId,
			pageId: input.pageId,
			workspaceId: ctx.workspace.id
		});
		await tx.pageSubscriber.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'page_subscriber.delete',
			entityType: 'page_subscriber',
			entityId: row.id,
			before: toSubscriberOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
