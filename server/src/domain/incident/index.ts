export { recordStatusChange } from './record-status-change.ts';
export { listIncidents } from './list.ts';
export { getIncident } from './get.ts';
export { acknowledgeIncident } from './acknowledge.ts';
export { resolveIncident } from './resolve.ts';
export { autoResolveIncidents, type AutoResolveCounts } from './auto-resolve.ts';
export { openMissedIncidents, type OpenMissedCounts } from './open-missed.ts';
export * from './schemas.ts';
export {
	processStatusEvents,
	pruneStatusEvents,
	STATUS_EVENT_RETENTION_MS,
	type ProcessedEvent
} from './process-events.ts';
