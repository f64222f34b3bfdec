import type { Db } from '../../db/client.ts';
import type { ChannelForSend } from '../../notify/types.ts';
import type { Vault } from '../../notify/vault.ts';
import type { WorkspaceRef } from '../context.ts';
import { channelInclude, openSecrets, readConfig, requireProviderAllowed } from './internal.ts';
import type { ProviderType } from './providers.ts';

// The seam for alert delivery (incidents and their outbox come later): the channels wired to a
// monitor, ready for sendToChannel. Channels the plan no longer allows, or whose secrets cannot
// be opened, are left out with a log line rather than failing the whole dispatch.
export async function listChannelsForMonitor(args: {
	db: Db;
	workspace: WorkspaceRef;
	monitorId: number;
	vault: Vault;
}): Promise<ChannelForSend[]> {
	const rows = await args.db.notificationChannel.findMany({
		where: { workspaceId: args.workspace.id, monitors: { some: { monitorId: args.monitorId } } },
		include: channelInclude,
		orderBy: { id: 'asc' }
	});
	const channels: ChannelForSend[] = [];
	for (const row of rows) {
		const providerType = row.providerType as ProviderType;
		try {
			requireProviderAllowed(args.workspace.limits, providerType);
			const settings = { ...readConfig(row).block, ...openSecrets(row, args.vault) };
			channels.push({ id: row.id, name: row.name, providerType, settings });
		} catch (err) {
			console.warn(
				`[notify] skipped channel=${row.id} workspaceId=${args.workspace.id} reason=${JSON.stringify((err as Error).message)}`
			);
		}
	}
	return channels;
}
