import { dedupKey, jsonHeaders, summaryOf, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

// Grafana OnCall "Formatted Webhook": state ok auto-resolves the alert group of alert_uid.
export function grafanaOnCallPayload(event: NotifyEvent, channelId: number) {
	return {
		alert_uid: dedupKey(event, channelId),
		title: titleOf(event),
		image_url: null,
		state: event.kind === 'recovery' ? 'ok' : 'alerting',
		link_to_upstream_details: event.dashboardUrl,
		message: summaryOf(event)
	};
}

export const sendGrafanaOnCall: Provider = ({ channel, event, deps }) =>
	sendRequest({
		url: String(channel.settings.webhook_url),
		headers: jsonHeaders,
		body: JSON.stringify(grafanaOnCallPayload(event, channel.id)),
		timeoutMs: deps.config.timeoutMs,
		guard: !deps.config.allowPrivateTargets
	});
