import type { NotifyEvent } from './types.ts';

const VERB: Record<NotifyEvent['kind'], string> = {
	alert: 'is down',
	recovery: 'has recovered',
	degraded: 'is degraded',
	test: 'test notification'
};

export function titleOf(event: NotifyEvent): string {
	if (event.kind === 'test') return `Test notification from Upstate (${event.monitor.name})`;
	return `${event.monitor.name} ${VERB[event.kind]}`;
}

export function summaryOf(event: NotifyEvent): string {
	const lines = [titleOf(event), `Monitor: ${event.monitor.name} (${event.monitor.url})`];
	if (event.error) lines.push(`Error: ${event.error}`);
	lines.push(`At: ${event.at}`, `Details: ${event.dashboardUrl}`);
	return lines.join('\n');
}

// One key per monitor and incident, shared by the alert and its recovery (PagerDuty dedup_key,
// Opsgenie alias, Grafana OnCall alert_uid), so the recovery resolves the same alert.
export function dedupKey(event: NotifyEvent, channelId: number): string {
	if (event.kind === 'test') return `upstate-test-channel-${channelId}`;
	return `upstate-monitor-${event.monitor.id}${event.incidentId !== undefined ? `-incident-${event.incidentId}` : ''}`;
}

export const escapeHtml = (s: string) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const jsonHeaders = { 'content-type': 'application/json', 'user-agent': 'Upstate/1' };
