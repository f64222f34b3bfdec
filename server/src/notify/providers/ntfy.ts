import { jsonHeaders, summaryOf, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider } from '../types.ts';

const PRIORITY = { alert: 5, degraded: 4, recovery: 3, test: 2 } as const;
const TAG = {
	alert: 'rotating_light',
	degraded: 'warning',
	recovery: 'white_check_mark',
	test: 'test_tube'
} as const;

// ntfy JSON publishing (POST to the server root with the topic in the body), so titles with any
// characters need no header encoding.
export function ntfyPayload(event: NotifyEvent, topic: string) {
	return {
		topic,
		title: titleOf(event),
		message: summaryOf(event),
		priority: PRIORITY[event.kind],
		tags: [TAG[event.kind], 'upstate'],
		click: event.dashboardUrl
	};
}

export const sendNtfy: Provider = async ({ channel, event, deps }) => {
	const custom = channel.settings.server_url as string | undefined;
	const server = (custom ?? deps.config.baseUrls.ntfy).replace(/\/+$/, '');
	const token = channel.settings.token as string | undefined;
	return sendRequest({
		url: `${server}/`,
		headers: { ...jsonHeaders, ...(token ? { authorization: `Bearer ${token}` } : {}) },
		body: JSON.stringify(ntfyPayload(event, String(channel.settings.topic))),
		timeoutMs: deps.config.timeoutMs,
		guard: custom !== undefined && !deps.config.allowPrivateTargets
	});
};
