import { formatTime } from './time';

export type Check = {
	at: string;
	outcome: 'success' | 'degraded' | 'error';
	latency: number;
	statusCode: number | null;
	error: string;
};

export const OUTCOME_LABEL: Record<Check['outcome'], string> = {
	success: 'Up',
	degraded: 'Degraded',
	error: 'Down'
};
export const OUTCOME_CLASS: Record<Check['outcome'], string> = {
	success: 'bg-status-operational',
	degraded: 'bg-status-degraded',
	error: 'bg-status-outage'
};

// What a heartbeat cell says: time, status (with the HTTP code), latency, then the error.
export function describeCheck(c: Check): string {
	const status =
		c.statusCode === null
			? OUTCOME_LABEL[c.outcome]
			: `${OUTCOME_LABEL[c.outcome]} (${c.statusCode})`;
	const parts = [formatTime(c.at), status, `${Math.round(c.latency)} ms`];
	if (c.error) parts.push(c.error);
	return parts.join(' · ');
}

// Bar heights in percent: latency against the strip's slowest check, never below a quarter so
// a fast check stays visible.
export function barHeights(checks: Check[]): number[] {
	const max = Math.max(1, ...checks.map((c) => c.latency));
	return checks.map((c) => Math.round(25 + (75 * c.latency) / max));
}

export function countOutcomes(checks: Check[]): string {
	const n = (o: Check['outcome']) => checks.filter((c) => c.outcome === o).length;
	const parts = [`${n('success')} up`];
	if (n('degraded')) parts.push(`${n('degraded')} degraded`);
	if (n('error')) parts.push(`${n('error')} down`);
	return parts.join(', ');
}
