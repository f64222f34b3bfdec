import { createHmac, timingSafeEqual } from 'node:crypto';
import { jsonHeaders } from '../format.ts';
import { sendRequest } from '../http.ts';
import type { ChannelForSend, NotifyEvent, Provider } from '../types.ts';

// Generic webhook, payload version 1 (documented in the report / README):
// {"version":"1","event":"alert|recovery|degraded|test","at","monitor":{id,name,url},
//  "incident_id","error","dashboard_url","channel":{id,name}}
// Signed: X-Upstate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(signing secret, "<t>.<body>")>.
export function webhookPayload(event: NotifyEvent, channel: Pick<ChannelForSend, 'id' | 'name'>) {
	return {
		version: '1',
		event: event.kind,
		at: event.at,
		monitor: event.monitor,
		incident_id: event.incidentId ?? null,
		error: event.error ?? null,
		dashboard_url: event.dashboardUrl,
		channel: { id: channel.id, name: channel.name }
	};
}

export const signatureOf = (secret: string, timestamp: number, body: string) =>
	createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

// What a receiver does: recompute over the raw body and reject stale timestamps.
export function verifyWebhookSignature(args: {
	secret: string;
	header: string;
	body: string;
	toleranceSeconds?: number;
	now?: number;
}): boolean {
	const parts = Object.fromEntries(args.header.split(',').map((p) => p.trim().split('=', 2)));
	const t = Number(parts.t);
	if (!Number.isInteger(t) || typeof parts.v1 !== 'string') return false;
	const now = args.now ?? Math.floor(Date.now() / 1000);
	if (Math.abs(now - t) > (args.toleranceSeconds ?? 300)) return false;
	const expected = Buffer.from(signatureOf(args.secret, t, args.body), 'hex');
	const given = Buffer.from(parts.v1, 'hex');
	return given.length === expected.length && timingSafeEqual(given, expected);
}

export const sendWebhook: Provider = async ({ channel, event, deps }) => {
	const body = JSON.stringify(webhookPayload(event, channel));
	const t = Math.floor(Date.now() / 1000);
	const userHeaders = (channel.settings.headers as Array<{ key: string; value: string }>) ?? [];
	return sendRequest({
		url: String(channel.settings.endpoint),
		headers: {
			...Object.fromEntries(userHeaders.map((h) => [h.key.toLowerCase(), h.value])),
			...jsonHeaders,
			'x-upstate-event': event.kind,
			'x-upstate-signature': `t=${t},v1=${signatureOf(String(channel.settings.signing_secret), t, body)}`
		},
		body,
		timeoutMs: deps.config.timeoutMs,
		guard: !deps.config.allowPrivateTargets
	});
};
