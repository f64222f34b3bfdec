export const STATUS_LABELS: Record<string, string> = {
	investigating: 'Investigating',
	identified: 'Identified',
	monitoring: 'Monitoring',
	resolved: 'Resolved'
};
export const IMPACT_LABELS: Record<string, string> = {
	operational: 'Operational',
	degraded_performance: 'Degraded performance',
	partial_outage: 'Partial outage',
	major_outage: 'Major outage'
};
// The statuses a report can be set to in a form (resolving has its own form).
export const STATUS_OPTIONS = (['investigating', 'identified', 'monitoring'] as const).map(
	(value) => ({ value, label: STATUS_LABELS[value] })
);
