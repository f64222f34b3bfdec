import { jsonHeaders, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

const COLOR = {
	alert: 'Attention',
	degraded: 'Warning',
	recovery: 'Good',
	test: 'Accent'
} as const;

// Microsoft Teams incoming webhook (Workflows): a message carrying one Adaptive Card.
export function teamsPayload(event: NotifyEvent) {
	const facts = [
		{ title: 'Monitor', value: event.monitor.name },
		{ title: 'URL', value: event.monitor.url }
	];
	if (event.error) facts.push({ title: 'Error', value: event.error });
	facts.push({ title: 'At', value: event.at });
	return {
		type: 'message',
		attachments: [
			{
				contentType: 'application/vnd.microsoft.card.adaptive',
				contentUrl: null,
				content: {
					$schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
					type: 'AdaptiveCard',
					version: '1.4',
					body: [
						{
							type: 'TextBlock',
							size: 'Large',
							weight: 'Bolder',
							wrap: true,
							color: COLOR[event.kind],
							text: titleOf(event)
						},
						{ type: 'FactSet', facts }
					],
					actions: [{ type: 'Action.OpenUrl', title: 'Open in Upstate', url: event.dashboardUrl }]
				}
			}
		]
	};
}

export const sendMsTeams: Provider = ({ channel, event, deps }) =>
	sendRequest({
		url: String(channel.settings.webhook_url),
		headers: jsonHeaders,
		body: JSON.stringify(teamsPayload(event)),
		timeoutMs: deps.config.timeoutMs,
		guard: !deps.config.allowPrivateTargets
	});
