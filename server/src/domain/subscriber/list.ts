import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { toSubscriberOutput } from './internal.ts';
import { ListSubscribersInput, type SubscriberListOutput } from './schemas.ts';

// A page's current subscribers (pending and confirmed; unsubscribed ones are gone), oldest first.
export async function listSubscribers(args: {
	ctx: ServiceContext;
	input: ListSubscribersInput;
}): Promise<SubscriberListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const input = parseInput(ListSubscribersInput, args.input);
	const page = await getStatusPageInWorkspace({
		tx: ctx.db,
		id: input.pageId,
		workspaceId: ctx.workspace.id
	});
	const rows = await ctx.db.pageSubscriber.findMany({
		where: { pageId: page.id, workspaceId: ctx.workspace.id, unsubscribedAt: null },
		orderBy: { id: 'asc' }
	});
	return { data: rows.map(toSubscriberOutput) };
}
