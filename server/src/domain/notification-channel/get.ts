import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getChannelInWorkspace, toChannelOutput } from './internal.ts';
import { NotificationChannelIdInput, type NotificationChannelOutput } from './schemas.ts';

export async function getNotificationChannel(args: {
	ctx: ServiceContext;
	input: NotificationChannelIdInput;
}): Promise<NotificationChannelOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { notificationChannelId } = parseInput(NotificationChannelIdInput, args.input);
	return toChannelOutput(
		await getChannelInWorkspace({
			tx: ctx.db,
			id: notificationChannelId,
			workspaceId: ctx.workspace.id
		})
	);
}
