import type { Db } from '../../db/client.ts';
import type { MonitorOutput } from '../monitor/schemas.ts';
import type { AuthenticatedLocation } from './authenticate.ts';
import { listAssignedMonitors } from './list-assigned.ts';

// The "run now" requests (monitor.trigger) pending for the calling location, each claimed once:
// the request is cleared with a conditional update, so two probes sharing a key never both run
// it. Returns the monitors to check now, as ListMonitors shows them (a paused one is dropped).
export async function claimRunRequests(args: {
	db: Db;
	location: AuthenticatedLocation;
}): Promise<MonitorOutput[]> {
	const { db, location } = args;
	const pending = await db.privateLocationMonitor.findMany({
		where: { privateLocationId: location.privateLocationId, runRequestedAt: { not: null } },
		select: { monitorId: true, runRequestedAt: true }
	});
	if (pending.length === 0) return [];
	const claimed = new Set<number>();
	for (const p of pending) {
		const { count } = await db.privateLocationMonitor.updateMany({
			where: {
				privateLocationId: location.privateLocationId,
				monitorId: p.monitorId,
				runRequestedAt: p.runRequestedAt
			},
			data: { runRequestedAt: null }
		});
		if (count === 1) claimed.add(p.monitorId);
	}
	if (claimed.size === 0) return [];
	return listAssignedMonitors({ db, location, monitorIds: [...claimed] });
}
