import type { AnalyticsStore } from '../../analytics/index.ts';
import type { Db } from '../../db/client.ts';
import { parseInput } from '../parse.ts';
import type { AuthenticatedLocation } from '../private-location/index.ts';
import { bumpPageContentVersion } from '../status-page/public/render-cache.ts';
import { STATUS_OF_OUTCOME, quorumStatus } from './quorum.ts';
import { IngestResultsInput, type IngestOutcome, type StatusChange } from './schemas.ts';

// A batch from one private location: store every result once, mark the location seen, update
// its view of each monitor and the monitors' own status (quorum). Returns the status changes
// for the workflows app. Results for monitors no longer assigned to the location are dropped.
export async function ingestCheckResults(args: {
	db: Db;
	analytics: AnalyticsStore;
	location: AuthenticatedLocation;
	input: IngestResultsInput;
}): Promise<IngestOutcome> {
	const { db, location } = args;
	const { results } = parseInput(IngestResultsInput, args.input);
	const assigned = new Set(
		(
			await db.privateLocationMonitor.findMany({
				where: { privateLocationId: location.privateLocationId },
				select: { monitorId: true }
			})
		).map((a) => a.monitorId)
	);
	const kept = results.filter((r) => assigned.has(r.monitorId));
	const { accepted, duplicates } = await args.analytics.insertResults(
		kept.map(({ attempts: _a, ...r }) => ({
			...r,
			workspaceId: location.workspaceId,
			locationId: location.privateLocationId
		}))
	);
	// Only the health cron changes the location's status (spec 3.3), so that every change is
	// audited and mailed once; a report just refreshes last_seen_at.
	await db.privateLocation.update({
		where: { id: location.privateLocationId },
		data: { lastSeenAt: new Date() }
	});
	const latest = new Map<number, (typeof kept)[number]>();
	for (const r of kept)
		if ((latest.get(r.monitorId)?.startedAt ?? 0) <= r.startedAt) latest.set(r.monitorId, r);
	const changes: StatusChange[] = [];
	for (const [monitorId, result] of latest) {
		const change = await db.$transaction(async (tx) => {
			await tx.privateLocationMonitor.update({
				where: {
					privateLocationId_monitorId: { privateLocationId: location.privateLocationId, monitorId }
				},
				data: { status: STATUS_OF_OUTCOME[result.outcome] }
			});
			const monitor = await tx.monitor.findUniqueOrThrow({
				where: { id: monitorId },
				include: { privateLocations: { select: { status: true } } }
			});
			const next = quorumStatus(
				monitor.privateLocations.map((p) => p.status),
				monitor.status
			);
			if (next === monitor.status) return null;
			await tx.monitor.update({ where: { id: monitorId }, data: { status: next } });
			return {
				monitorId,
				workspaceId: location.workspaceId,
				from: monitor.status,
				to: next as StatusChange['to'],
				error: result.error
			};
		});
		if (change) changes.push(change);
		// Committed: status pages re-render with the new monitor status.
		if (change) bumpPageContentVersion();
	}
	return { accepted, duplicates, rejected: results.length - kept.length, changes };
}
