import { sendToChannel, type Notifier } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	getChannelInWorkspace,
	openSecrets,
	readConfig,
	requireProviderAllowed
} from './internal.ts';
import type { ProviderType } from './providers.ts';
import { NotificationChannelIdInput, type SendTestNotificationOutput } from './schemas.ts';

// Sends a `test` event through the channel and returns the vendor's answer. The audit entry is
// committed first; delivery follows outside the transaction (a slow vendor holds no lock).
export async function sendTestNotification(args: {
	ctx: ServiceContext;
	input: NotificationChannelIdInput;
	notifier: Notifier;
}): Promise<SendTestNotificationOutput> {
	const { ctx, notifier } = args;
	requireScope(ctx, 'write');
	const { notificationChannelId } = parseInput(NotificationChannelIdInput, args.input);
	const row = await withTransaction(ctx, async (tx) => {
		const row = await getChannelInWorkspace({
			tx,
			id: notificationChannelId,
			workspaceId: ctx.workspace.id
		});
		requireProviderAllowed(ctx.workspace.limits, row.providerType as ProviderType);
		await writeAudit({
			ctx,
			tx,
			action: 'notification_channel.test',
			entityType: 'notification_channel',
			entityId: row.id,
			before: null,
			after: { id: row.id, provider_type: row.providerType }
		});
		return row;
	});
	const monitor = row.monitors[0]?.monitor;
	const dashboardUrl = `${notifier.dashboardUrl}/notifications/${row.id}`;
	return sendToChannel({
		channel: {
			id: row.id,
			name: row.name,
			providerType: row.providerType as ProviderType,
			settings: { ...readConfig(row).block, ...openSecrets(row, notifier.vault) }
		},
		event: {
			kind: 'test',
			monitor: monitor
				? { id: monitor.id, name: monitor.name, url: monitor.url ?? monitor.uri ?? '' }
				: { id: 0, name: 'Example monitor', url: 'https://example.com' },
			at: new Date().toISOString(),
			dashboardUrl
		},
		deps: { config: notifier.config, mailer: notifier.mailer, workspaceId: ctx.workspace.id }
	});
}
