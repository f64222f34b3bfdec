import type { Vault } from '../../notify/vault.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireCount } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	generateSigningSecret,
	getChannelInWorkspace,
	requireProviderAllowed,
	sensitivePart,
	setMonitors,
	toChannelOutput,
	toChannelSnapshot,
	toStoredColumns
} from './internal.ts';
import { requirePublicTargets } from './targets.ts';
import { CreateNotificationChannelInput, type NotificationChannelWriteOutput } from './schemas.ts';

export async function createNotificationChannel(args: {
	ctx: ServiceContext;
	input: CreateNotificationChannelInput;
	vault: Vault;
	allowPrivateTargets?: boolean; // NOTIFY_ALLOW_PRIVATE_TARGETS (config.notify); default refuses
}): Promise<NotificationChannelWriteOutput> {
	const { ctx, vault } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreateNotificationChannelInput, args.input);
	await requirePublicTargets(input, args.allowPrivateTargets ?? false);
	const type = input.provider_type;
	requireProviderAllowed(ctx.workspace.limits, type);
	const block = (input[type] ?? {}) as Record<string, unknown>;
	const secrets = sensitivePart(type, block);
	const signingSecret = type === 'webhook' ? generateSigningSecret() : undefined;
	if (signingSecret) secrets.signing_secret = signingSecret;
	return withTransaction(ctx, async (tx) => {
		const count = await tx.notificationChannel.count({ where: { workspaceId: ctx.workspace.id } });
		requireCount(ctx.workspace.limits, 'notification-channels', count);
		const created = await tx.notificationChannel.create({
			data: {
				workspaceId: ctx.workspace.id,
				name: input.name,
				providerType: type,
				...toStoredColumns(type, block, secrets, vault)
			}
		});
		await setMonitors(tx, {
			workspaceId: ctx.workspace.id,
			channelId: created.id,
			monitorIds: input.monitor_ids
		});
		const row = await getChannelInWorkspace({ tx, id: created.id, workspaceId: ctx.workspace.id });
		await writeAudit({
			ctx,
			tx,
			action: 'notification_channel.create',
			entityType: 'notification_channel',
			entityId: row.id,
			before: null,
			after: toChannelSnapshot(row)
		});
		return { ...toChannelOutput(row), ...(signingSecret ? { signing_secret: signingSecret } : {}) };
	});
}
