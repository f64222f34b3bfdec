import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { channelInclude, toChannelOutput } from './internal.ts';
import { ListNotificationChannelsInput, type NotificationChannelListOutput } from './schemas.ts';

export async function listNotificationChannels(args: {
	ctx: ServiceContext;
	input?: ListNotificationChannelsInput;
}): Promise<NotificationChannelListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { page, perPage } = parseInput(ListNotificationChannelsInput, args.input);
	const where = { workspaceId: ctx.workspace.id };
	const [rows, totalSize] = await Promise.all([
		ctx.db.notificationChannel.findMany({
			where,
			include: channelInclude,
			orderBy: { id: 'desc' },
			skip: (page - 1) * perPage,
			take: perPage
		}),
		ctx.db.notificationChannel.count({ where })
	]);
	return {
		data: rows.map(toChannelOutput),
		pagination: { page, perPage, totalSize, totalPages: Math.ceil(totalSize / perPage) }
	};
}
