import { dedupKey, jsonHeaders, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider, SendResult } from '../types.ts';

const SEVERITY = { alert: 'critical', degraded: 'warning', test: 'info' } as const;

// PagerDuty Events API v2: trigger on alert/degraded, resolve on recovery, one dedup_key per
// monitor incident. A test triggers an info event and resolves it at once.
export function pagerDutyTrigger(event: NotifyEvent, routingKey: string, channelId: number) {
	const kind = event.kind === 'recovery' ? 'alert' : event.kind;
	return {
		routing_key: routingKey,
		event_action: 'trigger',
		dedup_key: dedupKey(event, channelId),
		payload: {
			summary: titleOf(event).slice(0, 1024),
			source: event.monitor.url,
			severity: SEVERITY[kind],
			timestamp: event.at,
			component: event.monitor.name,
			class: event.kind,
			custom_details: { monitor_id: event.monitor.id, error: event.error ?? null }
		},
		client: 'Upstate',
		client_url: event.dashboardUrl,
		links: [{ href: event.dashboardUrl, text: 'Open in Upstate' }]
	};
}

export const sendPagerDuty: Provider = async ({ channel, event, deps }) => {
	const routingKey = String(channel.settings.integration_key);
	const post = (body: unknown): Promise<SendResult> =>
		sendRequest({
			url: `${deps.config.baseUrls.pagerduty}/v2/enqueue`,
			headers: jsonHeaders,
			body: JSON.stringify(body),
			timeoutMs: deps.config.timeoutMs,
			guard: false
		});
	const resolve = () =>
		post({
			routing_key: routingKey,
			event_action: 'resolve',
			dedup_key: dedupKey(event, channel.id)
		});
	if (event.kind === 'recovery') return resolve();
	const triggered = await post(pagerDutyTrigger(event, routingKey, channel.id));
	if (event.kind === 'test' && triggered.ok) await resolve();
	return triggered;
};
