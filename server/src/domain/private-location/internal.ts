import { createHash, randomBytes } from 'node:crypto';
import type { Prisma } from '@prisma/client';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { PrivateLocationListItem, PrivateLocationOutput } from './schemas.ts';
import { setMonitorLinks } from '../monitor/internal.ts';

export const locationInclude = {
	monitors: { select: { monitorId: true } }
} satisfies Prisma.PrivateLocationInclude;
type LocationRow = Prisma.PrivateLocationGetPayload<{ include: typeof locationInclude }>;

export const generateAgentKey = () => `usp_${randomBytes(32).toString('base64url')}`;
export const hashAgentKey = (key: string) => createHash('sha256').update(key).digest('hex');

export async function getLocationInWorkspace(args: InWorkspace): Promise<LocationRow> {
	return getInWorkspace('private location', args, (where) =>
		args.tx.privateLocation.findFirst({ where, include: locationInclude })
	);
}

function common(row: LocationRow) {
	return {
		id: row.id,
		name: row.name,
		monitor_ids: row.monitors.map((m) => m.monitorId).sort((a, b) => a - b),
		metadata: JSON.parse(row.metadata) as Record<string, string>,
		status: row.status as PrivateLocationOutput['status'],
		built_in: row.builtIn,
		last_seen_at: row.lastSeenAt?.toISOString() ?? null,
		created_at: row.createdAt.toISOString(),
		updated_at: row.updatedAt.toISOString()
	};
}

export const toLocationOutput = (row: LocationRow): PrivateLocationOutput => ({
	...common(row),
	token: row.token
});
export const toLocationListItem = (row: LocationRow): PrivateLocationListItem => ({
	...common(row),
	monitor_count: row.monitors.length
});
// Audit snapshots never carry the agent key.
export const toLocationSnapshot = (row: LocationRow) => common(row);

export function setMonitors(
	tx: Tx,
	args: { workspaceId: number; locationId: number; monitorIds: number[] }
): Promise<void> {
	const owner = { privateLocationId: args.locationId };
	return setMonitorLinks(tx, {
		...args,
		linked: () => tx.privateLocationMonitor.findMany({ where: owner, select: { monitorId: true } }),
		unlinkAllBut: (keep) =>
			tx.privateLocationMonitor.deleteMany({ where: { ...owner, monitorId: { notIn: keep } } }),
		link: (ids) =>
			tx.privateLocationMonitor.createMany({
				data: ids.map((monitorId) => ({ ...owner, monitorId }))
			})
	});
}
