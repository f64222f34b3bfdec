// A component's current state and the page's overall banner, derived from one rule set so the
// banner can never disagree with the rows under it.
export const IMPACTS = [
	'operational',
	'degraded_performance',
	'partial_outage',
	'major_outage'
] as const;
export type Impact = (typeof IMPACTS)[number];
export type ComponentState = Impact | 'under_maintenance' | 'unknown';
export type Banner = Exclude<ComponentState, 'unknown'>;
export type MonitorStatus = 'active' | 'degraded' | 'error' | 'unknown';

const FROM_MONITOR: Record<MonitorStatus, ComponentState> = {
	active: 'operational',
	degraded: 'degraded_performance',
	error: 'major_outage',
	unknown: 'unknown'
};

/**
 * Current state of one component:
 * 1. the latest impact naming it in an unresolved report, unless that impact is `operational`;
 * 2. otherwise a maintenance window in progress → `under_maintenance`;
 * 3. otherwise an `operational` report impact, else the monitor's status (active → operational,
 *    degraded → degraded_performance, error → major_outage, no data → unknown); a static
 *    component without reports is operational.
 */
export function componentState(args: {
	reportImpact: Impact | null;
	inMaintenance: boolean;
	monitorStatus: MonitorStatus | null;
}): ComponentState {
	const { reportImpact, inMaintenance, monitorStatus } = args;
	if (reportImpact && reportImpact !== 'operational') return reportImpact;
	if (inMaintenance) return 'under_maintenance';
	if (reportImpact) return reportImpact;
	return monitorStatus ? FROM_MONITOR[monitorStatus] : 'operational';
}

/**
 * The banner over the page, from the component states (unknown ones are ignored):
 * - `major_outage` when every known component is in major outage;
 * - `partial_outage` when some are in major or partial outage;
 * - `degraded_performance` when some are degraded;
 * - `under_maintenance` when some are under maintenance and nothing is worse;
 * - `operational` otherwise (also for a page with no components or no data yet).
 */
export function overallBanner(states: ComponentState[]): Banner {
	const known = states.filter((s): s is Banner => s !== 'unknown');
	const has = (s: Banner) => known.includes(s);
	if (known.length > 0 && known.every((s) => s === 'major_outage')) return 'major_outage';
	if (has('major_outage') || has('partial_outage')) return 'partial_outage';
	if (has('degraded_performance')) return 'degraded_performance';
	if (has('under_maintenance')) return 'under_maintenance';
	return 'operational';
}
