// Status words and colours, written once here and imported by the dashboard as `$status`.
export type MonitorStatus = 'active' | 'degraded' | 'error' | 'unknown';
export type OverallStatus = 'operational' | 'degraded' | 'outage' | 'unknown';

export const STATUS_LABEL: Record<MonitorStatus, string> = {
	active: 'Operational',
	degraded: 'Degraded performance',
	error: 'Outage',
	unknown: 'No data yet'
};

export const STATUS_CLASS: Record<MonitorStatus, string> = {
	active: 'bg-status-operational',
	degraded: 'bg-status-degraded',
	error: 'bg-status-outage',
	unknown: 'bg-status-unknown'
};

// The banner: any outage wins, then any degradation; all operational (or no data) reads
// operational only when at least one component has data.
export function overallStatus(statuses: MonitorStatus[]): OverallStatus {
	if (statuses.includes('error')) return 'outage';
	if (statuses.includes('degraded')) return 'degraded';
	if (statuses.includes('active')) return 'operational';
	return 'unknown';
}

export const OVERALL_LABEL: Record<OverallStatus, string> = {
	operational: 'All systems operational',
	degraded: 'Some systems are degraded',
	outage: 'Some systems are down',
	unknown: 'Status not yet known'
};

export const OVERALL_CLASS: Record<OverallStatus, string> = {
	operational: 'bg-status-operational',
	degraded: 'bg-status-degraded',
	outage: 'bg-status-outage',
	unknown: 'bg-status-unknown'
};
