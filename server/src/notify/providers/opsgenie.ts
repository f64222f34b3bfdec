import { dedupKey, jsonHeaders, summaryOf, titleOf } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { NotifyEvent, Provider, SendResult } from '../types.ts';

const PRIORITY = { alert: 'P1', degraded: 'P3', test: 'P5' } as const;

// Opsgenie Alert API: create on alert/degraded, close by alias on recovery, on the account's
// region host. A test creates a P5 alert and closes it at once.
export function opsgenieAlert(event: NotifyEvent, channelId: number) {
	const kind = event.kind === 'recovery' ? 'alert' : event.kind;
	return {
		message: titleOf(event).slice(0, 130),
		alias: dedupKey(event, channelId),
		description: summaryOf(event).slice(0, 15000),
		source: 'Upstate',
		entity: event.monitor.name.slice(0, 512),
		priority: PRIORITY[kind],
		tags: ['upstate', event.kind],
		details: {
			monitor_id: String(event.monitor.id),
			monitor_url: event.monitor.url,
			dashboard_url: event.dashboardUrl
		}
	};
}

export const sendOpsgenie: Provider = async ({ channel, event, deps }) => {
	const base =
		channel.settings.region === 'eu'
			? deps.config.baseUrls.opsgenie_eu
			: deps.config.baseUrls.opsgenie_us;
	const post = (path: string, body: unknown): Promise<SendResult> =>
		sendRequest({
			url: `${base}${path}`,
			headers: { ...jsonHeaders, authorization: `GenieKey ${String(channel.settings.api_key)}` },
			body: JSON.stringify(body),
			timeoutMs: deps.config.timeoutMs,
			guard: false
		});
	const close = () =>
		post(
			`/v2/alerts/${encodeURIComponent(dedupKey(event, channel.id))}/close?identifierType=alias`,
			{
				source: 'Upstate',
				note: event.kind === 'test' ? 'Test notification closed' : `${event.monitor.name} recovered`
			}
		);
	if (event.kind === 'recovery') return close();
	const created = await post('/v2/alerts', opsgenieAlert(event, channel.id));
	if (event.kind === 'test' && created.ok) await close();
	return created;
};
