import type { Db } from '../../db/client.ts';
import { monitorInclude, toMonitorOutput } from '../monitor/internal.ts';
import type { MonitorOutput } from '../monitor/schemas.ts';
import type { AuthenticatedLocation } from './authenticate.ts';

// What a probe runs: the active monitors assigned to its location (spec 1.4.5).
export async function listAssignedMonitors(args: {
	db: Db;
	location: AuthenticatedLocation;
}): Promise<MonitorOutput[]> {
	const rows = await args.db.monitor.findMany({
		where: {
			workspaceId: args.location.workspaceId,
			active: true,
			privateLocations: { some: { privateLocationId: args.location.privateLocationId } }
		},
		include: monitorInclude,
		orderBy: { id: 'asc' }
	});
	return rows.map(toMonitorOutput);
}
