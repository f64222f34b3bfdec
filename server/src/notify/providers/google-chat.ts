import { titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

// Google Chat incoming webhook with a cardsV2 message; `text` shows in notifications.
export function googleChatPayload(event: NotifyEvent) {
	const widgets: unknown[] = [
		{ decoratedText: { topLabel: 'Monitor', text: event.monitor.name } },
		{ decoratedText: { topLabel: 'URL', text: event.monitor.url } }
	];
	if (event.error)
		widgets.push({ decoratedText: { topLabel: 'Error', text: event.error, wrapText: true } });
	widgets.push({ decoratedText: { topLabel: 'At', text: event.at } });
	widgets.push({
		buttonList: {
			buttons: [{ text: 'Open in Upstate', onClick: { openLink: { url: event.dashboardUrl } } }]
		}
	});
	return {
		text: titleOf(event),
		cardsV2: [
			{
				cardId: `upstate-${event.kind}`,
				card: { header: { title: titleOf(event), subtitle: 'Upstate' }, sections: [{ widgets }] }
			}
		]
	};
}

export const sendGoogleChat: Provider = ({ channel, event, deps }) =>
	sendRequest({
		url: String(channel.settings.webhook_url),
		headers: { 'content-type': 'application/json; charset=UTF-8', 'user-agent': 'Upstate/1' },
		body: JSON.stringify(googleChatPayload(event)),
		timeoutMs: deps.config.timeoutMs,
		guard: !deps.config.allowPrivateTargets
	});
