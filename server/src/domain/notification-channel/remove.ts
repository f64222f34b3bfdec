import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getChannelInWorkspace, toChannelSnapshot } from './internal.ts';
import { NotificationChannelIdInput } from './schemas.ts';

export async function removeNotificationChannel(args: {
	ctx: ServiceContext;
	input: NotificationChannelIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { notificationChannelId } = parseInput(NotificationChannelIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getChannelInWorkspace({
			tx,
			id: notificationChannelId,
			workspaceId: ctx.workspace.id
		});
		await tx.notificationChannel.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'notification_channel.delete',
			entityType: 'notification_channel',
			entityId: row.id,
			before: toChannelSnapshot(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
