import { z } from 'zod';
import type { Vault } from '../../notify/vault.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	type ChannelRow,
	generateSigningSecret,
	getChannelInWorkspace,
	openSecrets,
	readConfig,
	requireProviderAllowed,
	sensitivePart,
	setMonitors,
	toChannelOutput,
	toChannelSnapshot,
	toStoredColumns
} from './internal.ts';
import { requirePublicTargets } from './targets.ts';
import { BLOCKS, type ProviderType } from './providers.ts';
import {
	blockIssues,
	UpdateNotificationChannelInput,
	type NotificationChannelWriteOutput
} from './schemas.ts';

// A sensitive field left out keeps its stored value. Changing provider_type starts from an empty
// block, so the new provider's required fields (secrets included) must all be given.
export async function updateNotificationChannel(args: {
	ctx: ServiceContext;
	input: UpdateNotificationChannelInput;
	vault: Vault;
	allowPrivateTargets?: boolean; // NOTIFY_ALLOW_PRIVATE_TARGETS (config.notify); default refuses
}): Promise<NotificationChannelWriteOutput> {
	const { ctx, vault } = args;
	requireScope(ctx, 'write');
	const input = parseInput(UpdateNotificationChannelInput, args.input);
	await requirePublicTargets(input, args.allowPrivateTargets ?? false);
	return withTransaction(ctx, async (tx) => {
		const row = await getChannelInWorkspace({
			tx,
			id: input.notificationChannelId,
			workspaceId: ctx.workspace.id
		});
		const stored = row.providerType as ProviderType;
		const type = input.provider_type ?? stored;
		const changed = type !== stored;
		const issues = blockIssues(type, input, changed);
		if (issues.length)
			throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
		if (changed) requireProviderAllowed(ctx.workspace.limits, type);
		let signingSecret: string | undefined;
		let columns: { config: string; secrets: string } | undefined;
		const given = input[type] as Record<string, unknown> | undefined;
		if (given || changed) {
			// Unreadable secrets (AUTH_SECRET rotated) count as absent: the edit must re-enter them.
			const previous = changed ? {} : openSecretsOrEmpty(row, vault);
			const merged = {
				...(changed ? {} : readConfig(row).block),
				...previous,
				...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined))
			};
			for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
			const block = parseInput(z.object({ [type]: BLOCKS[type] }), {
				[type]: withoutSigningSecret(merged)
			})[type] as Record<string, unknown>;
			const secrets = { ...sensitivePart(type, block) };
			if (type === 'webhook') {
				signingSecret = previous.signing_secret ? undefined : generateSigningSecret();
				secrets.signing_secret = signingSecret ?? previous.signing_secret;
			}
			columns = toStoredColumns(type, block, secrets, vault);
		}
		await tx.notificationChannel.update({
			where: { id: row.id },
			data: { name: input.name, providerType: type, ...columns }
		});
		if (input.monitor_ids)
			await setMonitors(tx, {
				workspaceId: ctx.workspace.id,
				channelId: row.id,
				monitorIds: input.monitor_ids
			});
		const after = await getChannelInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id });
		await writeAudit({
			ctx,
			tx,
			action: 'notification_channel.update',
			entityType: 'notification_channel',
			entityId: row.id,
			before: toChannelSnapshot(row),
			after: toChannelSnapshot(after)
		});
		return {
			...toChannelOutput(after),
			...(signingSecret ? { signing_secret: signingSecret } : {})
		};
	});
}

function openSecretsOrEmpty(row: ChannelRow, vault: Vault): Record<string, unknown> {
	try {
		return openSecrets(row, vault);
	} catch {
		return {};
	}
}

function withoutSigningSecret(block: Record<string, unknown>): Record<string, unknown> {
	const { signing_secret: _s, ...rest } = block;
	return rest;
}
