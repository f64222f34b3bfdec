import type { Prisma } from '@prisma/client';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { IncidentOutput } from './schemas.ts';

export const incidentInclude = {
	monitor: { select: { name: true } }
} satisfies Prisma.IncidentInclude;
export type IncidentRow = Prisma.IncidentGetPayload<{ include: typeof incidentInclude }>;

export async function getIncidentInWorkspace(args: InWorkspace): Promise<IncidentRow> {
	return getInWorkspace('incident', args, (where) =>
		args.tx.incident.findFirst({ where, include: incidentInclude })
	);
}

// Incidents name people by user id; the output carries their e-mail too.
export async function toIncidentOutputs(tx: Tx, rows: IncidentRow[]): Promise<IncidentOutput[]> {
	const ids = [
		...new Set(rows.flatMap((r) => [r.acknowledgedById, r.resolvedById]).filter((x) => x != null))
	];
	const users = new Map(
		(await tx.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } })).map(
			(u) => [u.id, u]
		)
	);
	const person = (id: number | null) => (id == null ? null : (users.get(id) ?? null));
	const now = Date.now();
	return rows.map((r) => ({
		id: r.id,
		monitorId: r.monitorId,
		monitorName: r.monitor.name,
		status: r.resolvedAt ? 'resolved' : r.acknowledgedAt ? 'acknowledged' : 'open',
		startedAt: r.startedAt.toISOString(),
		acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
		acknowledgedBy: person(r.acknowledgedById),
		resolvedAt: r.resolvedAt?.toISOString() ?? null,
		resolvedBy: person(r.resolvedById),
		autoResolved: r.autoResolved,
		duringMaintenance: r.duringMaintenance,
		durationSeconds: Math.round(((r.resolvedAt?.getTime() ?? now) - r.startedAt.getTime()) / 1000),
		error: r.errorMessage,
		failingLocations: JSON.parse(r.failingRegions) as string[]
	}));
}

export const toIncidentSnapshot = (r: IncidentRow) => ({
	id: r.id,
	monitorId: r.monitorId,
	acknowledgedAt: r.acknowledgedAt?.toISOString() ?? null,
	acknowledgedById: r.acknowledgedById,
	resolvedAt: r.resolvedAt?.toISOString() ?? null,
	resolvedById: r.resolvedById,
	autoResolved: r.autoResolved
});

// Is one of the monitor's status-page components in a maintenance window right now? A window
// with no components covers its whole page (as on the status page).
export async function isInMaintenance(args: {
	tx: Tx;
	workspaceId: number;
	monitorId: number;
	at: Date;
}): Promise<boolean> {
	const { tx, workspaceId, monitorId, at } = args;
	const count = await tx.maintenance.count({
		where: {
			workspaceId,
			from: { lte: at },
			to: { gt: at },
			OR: [
				{ components: { some: { component: { monitorId } } } },
				{ components: { none: {} }, page: { components: { some: { monitorId } } } }
			]
		}
	});
	return count > 0;
}

// The person acting, when there is one: users, and keys or grants created by a user.
export function actorUserId(actor: { type: string; userId?: number | null }): number | null {
	return 'userId' in actor ? (actor.userId ?? null) : null;
}
