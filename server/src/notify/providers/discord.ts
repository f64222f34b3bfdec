import { jsonHeaders, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

const COLOR: Record<NotifyEvent['kind'], number> = {
	alert: 0xdc2626,
	degraded: 0xf59e0b,
	recovery: 0x16a34a,
	test: 0x2563eb
};

// Discord execute-webhook with one embed.
export function discordPayload(event: NotifyEvent) {
	const fields = [
		{ name: 'Monitor', value: event.monitor.name.slice(0, 1024), inline: true },
		{ name: 'URL', value: event.monitor.url.slice(0, 1024), inline: true }
	];
	if (event.error) fields.push({ name: 'Error', value: event.error.slice(0, 1024), inline: false });
	return {
		username: 'Upstate',
		embeds: [
			{
				title: titleOf(event).slice(0, 256),
				url: event.dashboardUrl,
				color: COLOR[event.kind],
				timestamp: event.at,
				fields
			}
		]
	};
}

export const sendDiscord: Provider = ({ channel, event, deps }) =>
	sendRequest({
		url: String(channel.settings.webhook_url),
		headers: jsonHeaders,
		body: JSON.stringify(discordPayload(event)),
		timeoutMs: deps.config.timeoutMs,
		guard: !deps.config.allowPrivateTargets
	});
