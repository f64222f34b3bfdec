import type { MonitorStatus } from './schemas.ts';

export const STATUS_OF_OUTCOME = {
	success: 'active',
	degraded: 'degraded',
	error: 'error'
} as const;

// A monitor's own status follows its locations once at least half of those that have reported
// agree; when two statuses both reach half, the worse one wins. Otherwise it stays as it was.
export function quorumStatus(locationStatuses: string[], current: string): string {
	const known = locationStatuses.filter(
		(s): s is MonitorStatus => s === 'active' || s === 'degraded' || s === 'error'
	);
	if (known.length === 0) return current;
	for (const status of ['error', 'degraded', 'active'] as const) {
		if (known.filter((s) => s === status).length * 2 >= known.length) return status;
	}
	return current;
}
