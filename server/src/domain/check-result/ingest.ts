import type { AnalyticsStore } from '../../analytics/index.ts';
import type { Db } from '../../db/client.ts';
import { crashPoint } from '../../crash-point.ts';
import { parseInput } from '../parse.ts';
import { markPrivateLocationSeen, type AuthenticatedLocation } from '../private-location/index.ts';
import { markMonitorPagesChanged } from '../status-page/public/page-changes.ts';
import { withTransaction } from '../transaction.ts';
import { STATUS_OF_OUTCOME, quorumStatus } from './quorum.ts';
import { sanitizeResult } from './sanitize.ts';
import {
	IngestResultsInput,
	type CheckResultInput,
	type IngestOutcome,
	type StatusChange
} from './schemas.ts';

// A batch from one private location: store every result once, mark the location seen, update
// its view of each monitor and the monitors' own status (quorum). Returns the status changes
// for the workflows app. Results for monitors no longer assigned to the location are dropped.
// Each result is validated on its own: over-long fields are cut, an unusable result is logged
// and dropped, and the batch is still acknowledged (otherwise the probe resends it forever).
export async function ingestCheckResults(args: {
	db: Db;
	analytics: AnalyticsStore;
	location: AuthenticatedLocation;
	input: IngestResultsInput;
}): Promise<IngestOutcome> {
	const { db, location } = args;
	const { results: raw } = parseInput(IngestResultsInput, args.input);
	const results: CheckResultInput[] = [];
	for (const item of raw) {
		const checked = sanitizeResult(item);
		if (checked.ok) results.push(checked.result);
		if (checked.ok && checked.truncated.length > 0)
			console.warn(
				`[ingest] result truncated location=${location.privateLocationId} monitor=${checked.result.monitorId} result=${checked.result.resultId} fields=${checked.truncated.join(',')}`
			);
		if (!checked.ok)
			console.warn(
				`[ingest] result dropped location=${location.privateLocationId} monitor=${String(checked.monitorId)} reason=${JSON.stringify(checked.reason)}`
			);
	}
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
	await markPrivateLocationSeen({ db, location });
	const latest = new Map<number, (typeof kept)[number]>();
	for (const r of kept)
		if ((latest.get(r.monitorId)?.startedAt ?? 0) <= r.startedAt) latest.set(r.monitorId, r);
	const changes: StatusChange[] = [];
	for (const [monitorId, result] of latest) {
		const change = await withTransaction({ db }, async (tx) => {
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
			const at = new Date();
			await tx.monitor.update({ where: { id: monitorId }, data: { status: next, statusAt: at } });
			await markMonitorPagesChanged(tx, monitorId);
			// The change itself, committed with the status: its incident and alerts follow from
			// this row even if the forward below never arrives (domain/incident/process-events.ts).
			const event = await tx.statusEvent.create({
				data: {
					workspaceId: location.workspaceId,
					monitorId,
					from: monitor.status,
					to: next,
					error: result.error,
					at
				}
			});
			return {
				monitorId,
				workspaceId: location.workspaceId,
				from: monitor.status,
				to: next as StatusChange['to'],
				error: result.error,
				eventId: event.id,
				at: at.toISOString()
			};
		});
		if (change) crashPoint('after-status-commit', change.to);
		if (change) changes.push(change);
	}
	return { accepted, duplicates, rejected: raw.length - kept.length, changes };
}
