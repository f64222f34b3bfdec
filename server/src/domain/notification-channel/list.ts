import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { channelInclude, toChannelOutput } from './internal.ts';
import { ListNotificationChannelsInput, type NotificationChannelListOutput } from './schemas.ts';
import { paginate } from '../paginate.ts';

export async function listNotificationChannels(args: {
	ctx: ServiceContext;
	input?: ListNotificationChannelsInput;
}): Promise<NotificationChannelListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { page, perPage } = parseInput(ListNotificationChannelsInput, args.input);
	const where = { workspaceId: ctx.workspace.id };
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.notificationChannel.findMany({
				where,
				include: channelInclude,
				orderBy: { id: 'desc' },
				...window
			}),
		count: () => ctx.db.notificationChannel.count({ where })
	});
	return { data: rows.map(toChannelOutput), pagination };
}
