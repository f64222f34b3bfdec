import type { Db } from '../../db/client.ts';
import { resolveLimits } from '../limits.ts';
import { monitorInclude, toMonitorOutput } from '../monitor/internal.ts';
import type { MonitorOutput } from '../monitor/schemas.ts';
import type { AuthenticatedLocation } from './authenticate.ts';

// What a probe runs: the active monitors assigned to its location (spec 1.4.5). OTLP export
// settings go along only while the workspace's plan has `otel` (a downgrade stops the export).
export async function listAssignedMonitors(args: {
	db: Db;
	location: AuthenticatedLocation;
	monitorIds?: number[]; // only these (a ClaimRuns answer)
}): Promise<MonitorOutput[]> {
	const [workspace, rows] = await Promise.all([
		args.db.workspace.findUniqueOrThrow({
			where: { id: args.location.workspaceId },
			select: { limits: true }
		}),
		args.db.monitor.findMany({
			where: {
				workspaceId: args.location.workspaceId,
				active: true,
				...(args.monitorIds ? { id: { in: args.monitorIds } } : {}),
				privateLocations: { some: { privateLocationId: args.location.privateLocationId } }
			},
			include: monitorInclude,
			orderBy: { id: 'asc' }
		})
	]);
	const otel = resolveLimits(workspace.limits).otel;
	return rows.map(toMonitorOutput).map((m) => (otel ? m : { ...m, open_telemetry: null }));
}
