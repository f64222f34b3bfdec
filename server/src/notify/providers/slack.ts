import { titleOf } from '../format.ts';
import { jsonHeaders } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

// Slack incoming webhook with Block Kit; `text` is the notification fallback.
const mrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function slackPayload(event: NotifyEvent) {
	const title = titleOf(event);
	const lines = [`*Monitor:* ${mrkdwn(event.monitor.name)} (${mrkdwn(event.monitor.url)})`];
	if (event.error) lines.push(`*Error:* ${mrkdwn(event.error)}`);
	return {
		text: title,
		blocks: [
			{ type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
			{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
			{ type: 'context', elements: [{ type: 'mrkdwn', text: `Upstate · ${event.at}` }] },
			{
				type: 'actions',
				elements: [
					{
						type: 'button',
						text: { type: 'plain_text', text: 'Open in Upstate' },
						url: event.dashboardUrl
					}
				]
			}
		]
	};
}

export const sendSlack: Provider = ({ channel, event, deps }) =>
	sendRequest({
		url: String(channel.settings.webhook_url),
		headers: jsonHeaders,
		body: JSON.stringify(slackPayload(event)),
		timeoutMs: deps.config.timeoutMs,
		guard: !deps.config.allowPrivateTargets
	});
