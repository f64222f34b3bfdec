import { randomBytes } from 'node:crypto';
import type { Prisma } from '@prisma/client';
import type { Vault } from '../../notify/vault.ts';
import { ServiceError } from '../errors.ts';
import { requireFeature, type Limits } from '../limits.ts';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import { PROVIDER_FEATURE, SENSITIVE, hintsFor, type ProviderType } from './providers.ts';
import type { NotificationChannelOutput } from './schemas.ts';
import { setMonitorLinks } from '../monitor/internal.ts';

export const channelInclude = {
	monitors: { select: { monitor: { select: { id: true, name: true, url: true, uri: true } } } }
} satisfies Prisma.NotificationChannelInclude;
export type ChannelRow = Prisma.NotificationChannelGetPayload<{ include: typeof channelInclude }>;

type StoredConfig = { block: Record<string, unknown>; hints: Record<string, string> };

export async function getChannelInWorkspace(args: InWorkspace): Promise<ChannelRow> {
	return getInWorkspace('notification channel', args, (where) =>
		args.tx.notificationChannel.findFirst({ where, include: channelInclude })
	);
}

export function requireProviderAllowed(limits: Limits, type: ProviderType): void {
	requireFeature(limits, 'notifications');
	if (type in PROVIDER_FEATURE)
		requireFeature(limits, PROVIDER_FEATURE[type as keyof typeof PROVIDER_FEATURE]);
}

export const generateSigningSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

// Splits a provider block into the plain config and the secrets (sealed by the vault).
export function toStoredColumns(
	type: ProviderType,
	block: Record<string, unknown>,
	secrets: Record<string, unknown>,
	vault: Vault
): { config: string; secrets: string } {
	const plain = Object.fromEntries(
		Object.entries(block).filter(([k, v]) => !SENSITIVE[type].includes(k) && v !== undefined)
	);
	const config: StoredConfig = { block: plain, hints: hintsFor(secrets) };
	return { config: JSON.stringify(config), secrets: vault.seal(secrets) };
}

export function sensitivePart(
	type: ProviderType,
	block: Record<string, unknown>
): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(block).filter(([k, v]) => SENSITIVE[type].includes(k) && v !== undefined)
	);
}

// Secrets sealed under another AUTH_SECRET cannot be opened: the channel needs them re-entered.
export function openSecrets(
	row: { id: number; secrets: string },
	vault: Vault
): Record<string, unknown> {
	if (!row.secrets || row.secrets === '{}') return {};
	try {
		return vault.open(row.secrets);
	} catch {
		throw new ServiceError(
			'PRECONDITION_FAILED',
			`notification channel ${row.id} has secrets sealed with a different AUTH_SECRET: re-enter them`
		);
	}
}

export function readConfig(row: { config: string }): StoredConfig {
	const parsed = JSON.parse(row.config || '{}') as Partial<StoredConfig>;
	return { block: parsed.block ?? {}, hints: parsed.hints ?? {} };
}

export function toChannelOutput(row: ChannelRow): NotificationChannelOutput {
	const { block, hints } = readConfig(row);
	const monitors = row.monitors
		.map(({ monitor: m }) => ({ id: m.id, name: m.name }))
		.sort((a, b) => a.id - b.id);
	return {
		id: row.id,
		name: row.name,
		provider_type: row.providerType as ProviderType,
		monitor_ids: monitors.map((m) => m.id),
		monitors,
		[row.providerType]: block,
		secret_hints: hints,
		created_at: row.createdAt.toISOString(),
		updated_at: row.updatedAt.toISOString()
	};
}

// Audit snapshots are the public output: hints only, never a secret.
export const toChannelSnapshot = (row: ChannelRow) => {
	const { monitors: _m, ...rest } = toChannelOutput(row);
	return rest;
};

export function setMonitors(
	tx: Tx,
	args: { workspaceId: number; channelId: number; monitorIds: number[] }
): Promise<void> {
	const owner = { channelId: args.channelId };
	return setMonitorLinks(tx, {
		...args,
		linked: () =>
			tx.notificationChannelMonitor.findMany({ where: owner, select: { monitorId: true } }),
		unlinkAllBut: (keep) =>
			tx.notificationChannelMonitor.deleteMany({ where: { ...owner, monitorId: { notIn: keep } } }),
		link: (ids) =>
			tx.notificationChannelMonitor.createMany({
				data: ids.map((monitorId) => ({ ...owner, monitorId }))
			})
	});
}
