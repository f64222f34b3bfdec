import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVendor } from '../../test/fake-vendor.ts';
import { loadConfig } from '../config.ts';
import { createMailer } from '../mail/index.ts';
import type { ProviderType } from '../domain/notification-channel/providers.ts';
import { verifyWebhookSignature } from './providers/webhook.ts';
import { sendToChannel } from './send.ts';
import type { NotifyEvent, ProviderDeps } from './types.ts';

let vendor: Awaited<ReturnType<typeof startFakeVendor>>;
let deps: ProviderDeps;

const alert: NotifyEvent = {
	kind: 'alert',
	monitor: { id: 7, name: 'API', url: 'https://api.example.com/health' },
	incidentId: 42,
	error: 'HTTP 503 <Service Unavailable>',
	at: '2026-11-22T21:00:00.000Z',
	dashboardUrl: 'https://upstate.example.com/monitors/7'
};
const recovery: NotifyEvent = { ...alert, kind: 'recovery', error: undefined };
const SUMMARY =
	'API is down\nMonitor: API (https://api.example.com/health)\nError: HTTP 503 <Service Unavailable>\nAt: 2026-11-22T21:00:00.000Z\nDetails: https://upstate.example.com/monitors/7';

beforeAll(async () => {
	vendor = await startFakeVendor((req) =>
		req.path.includes('/v2/enqueue') || req.path.includes('/v2/alerts')
			? { status: 202, body: { status: 'success' } }
			: req.path.includes('Messages.json')
				? { status: 201, body: { sid: 'SM1' } }
				: { status: 200, body: { ok: true } }
	);
	const config = loadConfig({
		DATA_DIR: '/tmp/upstate-notify-test',
		AUTH_SECRET: 'x',
		NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
		NOTIFY_BASE_URLS: JSON.stringify({
			pagerduty: vendor.url,
			opsgenie_us: `${vendor.url}/us`,
			opsgenie_eu: `${vendor.url}/eu`,
			telegram: vendor.url,
			twilio: vendor.url,
			ntfy: `${vendor.url}/ntfy-default`
		}),
		TELEGRAM_BOT_TOKEN: '123456:bot-token',
		TWILIO_ACCOUNT_SID: 'AC123',
		TWILIO_AUTH_TOKEN: 'twilio-token',
		TWILIO_FROM: '+15005550006',
		TWILIO_WHATSAPP_FROM: '+14155238886'
	});
	deps = { config: config.notify, mailer: createMailer(config.mail) };
});
afterAll(() => vendor.close());

async function send(
	providerType: ProviderType,
	settings: Record<string, unknown>,
	event: NotifyEvent = alert
) {
	vendor.requests.length = 0;
	const result = await sendToChannel({
		channel: { id: 3, name: 'Ops', providerType, settings },
		event,
		deps
	});
	return { result, requests: vendor.requests.map((r) => ({ ...r, json: tryJson(r.body) })) };
}
const tryJson = (s: string): unknown => {
	try {
		return JSON.parse(s);
	} catch {
		return undefined;
	}
};

describe('notification providers against fake vendors', () => {
	it('Slack: Block Kit to the incoming webhook', async () => {
		const { result, requests } = await send('slack', {
			webhook_url: `${vendor.url}/services/T/B/x`
		});
		expect(result).toEqual({ ok: true, status: 200 });
		expect(requests).toHaveLength(1);
		const [req] = requests;
		expect(req).toMatchObject({ method: 'POST', path: '/services/T/B/x' });
		expect(req.headers['content-type']).toBe('application/json');
		expect(req.json).toEqual({
			text: 'API is down',
			blocks: [
				{ type: 'header', text: { type: 'plain_text', text: 'API is down' } },
				{
					type: 'section',
					text: {
						type: 'mrkdwn',
						text: '*Monitor:* API (https://api.example.com/health)\n*Error:* HTTP 503 &lt;Service Unavailable&gt;'
					}
				},
				{
					type: 'context',
					elements: [{ type: 'mrkdwn', text: 'Upstate · 2026-11-22T21:00:00.000Z' }]
				},
				{
					type: 'actions',
					elements: [
						{
							type: 'button',
							text: { type: 'plain_text', text: 'Open in Upstate' },
							url: alert.dashboardUrl
						}
					]
				}
			]
		});
	});

	it('Discord: one embed to the execute-webhook URL', async () => {
		const { result, requests } = await send('discord', {
			webhook_url: `${vendor.url}/api/webhooks/1/tok`
		});
		expect(result.ok).toBe(true);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/api/webhooks/1/tok' });
		expect(requests[0].headers['content-type']).toBe('application/json');
		expect(requests[0].json).toEqual({
			username: 'Upstate',
			embeds: [
				{
					title: 'API is down',
					url: alert.dashboardUrl,
					color: 0xdc2626,
					timestamp: alert.at,
					fields: [
						{ name: 'Monitor', value: 'API', inline: true },
						{ name: 'URL', value: 'https://api.example.com/health', inline: true },
						{ name: 'Error', value: 'HTTP 503 <Service Unavailable>', inline: false }
					]
				}
			]
		});
	});

	it('PagerDuty: Events API v2 trigger and resolve share the dedup_key of the incident', async () => {
		const key = { integration_key: 'R0UTINGKEY0123456789012345678901' };
		const { result, requests } = await send('pagerduty', key);
		expect(result).toEqual({ ok: true, status: 202 });
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/v2/enqueue' });
		expect(requests[0].headers['content-type']).toBe('application/json');
		expect(requests[0].json).toEqual({
			routing_key: key.integration_key,
			event_action: 'trigger',
			dedup_key: 'upstate-monitor-7-incident-42',
			payload: {
				summary: 'API is down',
				source: 'https://api.example.com/health',
				severity: 'critical',
				timestamp: alert.at,
				component: 'API',
				class: 'alert',
				custom_details: { monitor_id: 7, error: 'HTTP 503 <Service Unavailable>' }
			},
			client: 'Upstate',
			client_url: alert.dashboardUrl,
			links: [{ href: alert.dashboardUrl, text: 'Open in Upstate' }]
		});
		const resolved = await send('pagerduty', key, recovery);
		expect(resolved.result).toEqual({ ok: true, status: 202 });
		expect(resolved.requests.map((r) => [r.method, r.path, r.json])).toEqual([
			[
				'POST',
				'/v2/enqueue',
				{
					routing_key: key.integration_key,
					event_action: 'resolve',
					dedup_key: 'upstate-monitor-7-incident-42'
				}
			]
		]);
		const test = await send('pagerduty', key, { ...alert, kind: 'test', incidentId: undefined });
		expect(test.requests.map((r) => (r.json as { event_action: string }).event_action)).toEqual([
			'trigger',
			'resolve'
		]);
		expect((test.requests[0].json as { payload: { severity: string } }).payload.severity).toBe(
			'info'
		);
	});

	it('Opsgenie: create with GenieKey on the region host, close by alias on recovery', async () => {
		const settings = { api_key: 'og-api-key', region: 'eu' };
		const { result, requests } = await send('opsgenie', settings);
		expect(result).toEqual({ ok: true, status: 202 });
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/eu/v2/alerts' });
		expect(requests[0].headers).toMatchObject({
			authorization: 'GenieKey og-api-key',
			'content-type': 'application/json'
		});
		expect(requests[0].json).toEqual({
			message: 'API is down',
			alias: 'upstate-monitor-7-incident-42',
			description: SUMMARY,
			source: 'Upstate',
			entity: 'API',
			priority: 'P1',
			tags: ['upstate', 'alert'],
			details: {
				monitor_id: '7',
				monitor_url: 'https://api.example.com/health',
				dashboard_url: alert.dashboardUrl
			}
		});
		const closed = await send('opsgenie', { ...settings, region: 'us' }, recovery);
		expect(closed.requests).toHaveLength(1);
		expect(closed.requests[0]).toMatchObject({
			method: 'POST',
			path: '/us/v2/alerts/upstate-monitor-7-incident-42/close?identifierType=alias'
		});
		expect(closed.requests[0].headers.authorization).toBe('GenieKey og-api-key');
		expect(closed.requests[0].json).toEqual({ source: 'Upstate', note: 'API recovered' });
	});

	it('Google Chat: a cardsV2 message', async () => {
		const { result, requests } = await send('google_chat', {
			webhook_url: `${vendor.url}/v1/spaces/AAA/messages?key=k&token=t`
		});
		expect(result.ok).toBe(true);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: '/v1/spaces/AAA/messages?key=k&token=t'
		});
		expect(requests[0].headers['content-type']).toBe('application/json; charset=UTF-8');
		expect(requests[0].json).toEqual({
			text: 'API is down',
			cardsV2: [
				{
					cardId: 'upstate-alert',
					card: {
						header: { title: 'API is down', subtitle: 'Upstate' },
						sections: [
							{
								widgets: [
									{ decoratedText: { topLabel: 'Monitor', text: 'API' } },
									{ decoratedText: { topLabel: 'URL', text: 'https://api.example.com/health' } },
									{
										decoratedText: {
											topLabel: 'Error',
											text: 'HTTP 503 <Service Unavailable>',
											wrapText: true
										}
									},
									{ decoratedText: { topLabel: 'At', text: alert.at } },
									{
										buttonList: {
											buttons: [
												{
													text: 'Open in Upstate',
													onClick: { openLink: { url: alert.dashboardUrl } }
												}
											]
										}
									}
								]
							}
						]
					}
				}
			]
		});
	});

	it('Grafana OnCall: formatted webhook, state ok on recovery with the same alert_uid', async () => {
		const settings = { webhook_url: `${vendor.url}/integrations/v1/formatted_webhook/abc/` };
		const { requests } = await send('grafana_oncall', settings);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: '/integrations/v1/formatted_webhook/abc/'
		});
		expect(requests[0].json).toEqual({
			alert_uid: 'upstate-monitor-7-incident-42',
			title: 'API is down',
			image_url: null,
			state: 'alerting',
			link_to_upstream_details: alert.dashboardUrl,
			message: SUMMARY
		});
		const ok = await send('grafana_oncall', settings, recovery);
		expect(ok.requests[0].json).toMatchObject({
			alert_uid: 'upstate-monitor-7-incident-42',
			state: 'ok',
			title: 'API has recovered'
		});
	});

	it('ntfy: JSON publish with bearer token, priority and tags; default server from config', async () => {
		const { result, requests } = await send('ntfy', {
			topic: 'alerts',
			server_url: `${vendor.url}/my-ntfy/`,
			token: 'tk_secret'
		});
		expect(result).toEqual({ ok: true, status: 200 });
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/my-ntfy/' });
		expect(requests[0].headers).toMatchObject({
			authorization: 'Bearer tk_secret',
			'content-type': 'application/json'
		});
		expect(requests[0].json).toEqual({
			topic: 'alerts',
			title: 'API is down',
			message: SUMMARY,
			priority: 5,
			tags: ['rotating_light', 'upstate'],
			click: alert.dashboardUrl
		});
		const plain = await send('ntfy', { topic: 'alerts' }, recovery);
		expect(plain.requests[0].path).toBe('/ntfy-default/');
		expect(plain.requests[0].headers.authorization).toBeUndefined();
		expect(plain.requests[0].json).toMatchObject({
			priority: 3,
			tags: ['white_check_mark', 'upstate']
		});
	});

	it('Telegram: Bot API sendMessage with the deployment bot token', async () => {
		const { result, requests } = await send('telegram', { chat_id: '-1001234' });
		expect(result.ok).toBe(true);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/bot123456:bot-token/sendMessage' });
		expect(requests[0].headers['content-type']).toBe('application/json');
		expect(requests[0].json).toEqual({
			chat_id: '-1001234',
			text: `<b>API is down</b>\nMonitor: API (https://api.example.com/health)\nError: HTTP 503 &lt;Service Unavailable&gt;\nAt: ${alert.at}\n<a href="${alert.dashboardUrl}">Open in Upstate</a>`,
			parse_mode: 'HTML',
			link_preview_options: { is_disabled: true }
		});
	});

	it('SMS and WhatsApp: Twilio Messages API, form-encoded with Basic auth', async () => {
		const basic = `Basic ${Buffer.from('AC123:twilio-token').toString('base64')}`;
		const sms = await send('sms', { phone_number: '+14155550100' });
		expect(sms.result).toEqual({ ok: true, status: 201 });
		expect(sms.requests[0]).toMatchObject({
			method: 'POST',
			path: '/2010-04-01/Accounts/AC123/Messages.json'
		});
		expect(sms.requests[0].headers).toMatchObject({
			authorization: basic,
			'content-type': 'application/x-www-form-urlencoded'
		});
		expect(Object.fromEntries(new URLSearchParams(sms.requests[0].body))).toEqual({
			To: '+14155550100',
			From: '+15005550006',
			Body: SUMMARY
		});
		const wa = await send('whatsapp', { phone_number: '+14155550100' });
		expect(Object.fromEntries(new URLSearchParams(wa.requests[0].body))).toEqual({
			To: 'whatsapp:+14155550100',
			From: 'whatsapp:+14155238886',
			Body: SUMMARY
		});
	});

	it('Microsoft Teams: an Adaptive Card message to the incoming webhook', async () => {
		const { result, requests } = await send('ms_teams', {
			webhook_url: `${vendor.url}/workflows/triggers/manual/paths/invoke?sig=s`
		});
		expect(result.ok).toBe(true);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: '/workflows/triggers/manual/paths/invoke?sig=s'
		});
		expect(requests[0].headers['content-type']).toBe('application/json');
		expect(requests[0].json).toEqual({
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
								color: 'Attention',
								text: 'API is down'
							},
							{
								type: 'FactSet',
								facts: [
									{ title: 'Monitor', value: 'API' },
									{ title: 'URL', value: 'https://api.example.com/health' },
									{ title: 'Error', value: 'HTTP 503 <Service Unavailable>' },
									{ title: 'At', value: alert.at }
								]
							}
						],
						actions: [{ type: 'Action.OpenUrl', title: 'Open in Upstate', url: alert.dashboardUrl }]
					}
				}
			]
		});
	});

	it('webhook: versioned payload, user headers and a signature the receiver can verify', async () => {
		const secret = 'whsec_test-signing-secret';
		const { result, requests } = await send('webhook', {
			endpoint: `${vendor.url}/hooks/upstate`,
			headers: [{ key: 'X-Team', value: 'sre' }],
			signing_secret: secret
		});
		expect(result).toEqual({ ok: true, status: 200 });
		const [req] = requests;
		expect(req).toMatchObject({ method: 'POST', path: '/hooks/upstate' });
		expect(req.headers).toMatchObject({
			'content-type': 'application/json',
			'x-team': 'sre',
			'x-upstate-event': 'alert'
		});
		expect(req.json).toEqual({
			version: '1',
			event: 'alert',
			at: alert.at,
			monitor: alert.monitor,
			incident_id: 42,
			error: 'HTTP 503 <Service Unavailable>',
			dashboard_url: alert.dashboardUrl,
			channel: { id: 3, name: 'Ops' }
		});
		const header = String(req.headers['x-upstate-signature']);
		expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		expect(verifyWebhookSignature({ secret, header, body: req.body })).toBe(true);
		expect(verifyWebhookSignature({ secret: 'wrong', header, body: req.body })).toBe(false);
		expect(verifyWebhookSignature({ secret, header, body: `${req.body} ` })).toBe(false);
		expect(
			verifyWebhookSignature({ secret, header, body: req.body, now: Date.now() / 1000 + 3600 })
		).toBe(false);
	});

	it('reports a vendor error status, and a timeout', async () => {
		const failing = await startFakeVendor(() => ({
			status: 400,
			body: { message: 'invalid_payload' }
		}));
		const { result } = await send('slack', { webhook_url: `${failing.url}/x` });
		expect(result).toEqual({
			ok: false,
			status: 400,
			error: 'HTTP 400: {"message":"invalid_payload"}'
		});
		await failing.close();
		const slow = await startFakeVendor(() => ({ status: 200 }));
		const hang = await import('node:http').then((h) =>
			h.createServer(() => {
				/* never answers */
			})
		);
		await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
		const port = (hang.address() as AddressInfo).port;
		const timed = await sendToChannel({
			channel: {
				id: 1,
				name: 'x',
				providerType: 'slack',
				settings: { webhook_url: `http://127.0.0.1:${port}/` }
			},
			event: alert,
			deps: { ...deps, config: { ...deps.config, timeoutMs: 200 } }
		});
		expect(timed).toEqual({ ok: false, status: 0, error: 'timed out after 200 ms' });
		hang.closeAllConnections();
		hang.close();
		await slow.close();
	});

	it('refuses loopback, private, link-local and metadata targets when private targets are not allowed', async () => {
		const guarded: ProviderDeps = {
			...deps,
			config: { ...deps.config, allowPrivateTargets: false }
		};
		const targets = [
			`${vendor.url}/hook`,
			`http://localhost:${new URL(vendor.url).port}/hook`,
			'http://169.254.169.254/latest/meta-data/',
			'http://10.0.0.5/hook',
			'http://192.168.1.1/hook',
			'http://[::1]/hook',
			'http://[fd00:ec2::254]/hook',
			'http://[::ffff:127.0.0.1]/hook'
		];
		vendor.requests.length = 0;
		for (const endpoint of targets) {
			const result = await sendToChannel({
				channel: {
					id: 1,
					name: 'x',
					providerType: 'webhook',
					settings: { endpoint, signing_secret: 's' }
				},
				event: alert,
				deps: guarded
			});
			expect(result.ok, endpoint).toBe(false);
			expect(result.status).toBe(0);
			expect(result.error).toMatch(
				/^refused: .* is a private, loopback or link-local address .*NOTIFY_ALLOW_PRIVATE_TARGETS=true$/
			);
		}
		const ntfy = await sendToChannel({
			channel: {
				id: 1,
				name: 'x',
				providerType: 'ntfy',
				settings: { topic: 't', server_url: vendor.url }
			},
			event: alert,
			deps: guarded
		});
		expect(ntfy.error).toMatch(/^refused/);
		expect(vendor.requests).toEqual([]);
	});

	it('refuses a malformed NOTIFY_BASE_URLS at start-up and defaults to the vendor hosts', () => {
		const base = { DATA_DIR: '/tmp/upstate-notify-test', AUTH_SECRET: 'x' };
		for (const bad of ['{"pagerduty":"nope"}', '{"slack":"https://x.example"}', 'not json'])
			expect(() => loadConfig({ ...base, NOTIFY_BASE_URLS: bad })).toThrow(
				/^NOTIFY_BASE_URLS must be a JSON object of URLs/
			);
		expect(loadConfig(base).notify).toMatchObject({
			allowPrivateTargets: false,
			timeoutMs: 10000,
			baseUrls: {
				pagerduty: 'https://events.pagerduty.com',
				opsgenie_us: 'https://api.opsgenie.com',
				opsgenie_eu: 'https://api.eu.opsgenie.com',
				telegram: 'https://api.telegram.org',
				twilio: 'https://api.twilio.com',
				ntfy: 'https://ntfy.sh'
			}
		});
	});

	it('e-mail: HTML and text through the SMTP mailer', async () => {
		const mails: Array<{ to: string; subject: string; text: string; html: string }> = [];
		const smtp = new SMTPServer({
			authOptional: true,
			closeTimeout: 100, // the pooled mailer keeps its connection open
			disabledCommands: ['STARTTLS'],
			onData(stream, session, done) {
				simpleParser(stream)
					.then((parsed) => {
						mails.push({
							to: session.envelope.rcptTo.map((r) => r.address).join(','),
							subject: parsed.subject ?? '',
							text: parsed.text ?? '',
							html: typeof parsed.html === 'string' ? parsed.html : ''
						});
						done();
					})
					.catch(done);
			}
		});
		await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
		const port = (smtp.server.address() as AddressInfo).port;
		const mailer = createMailer({
			smtpUrl: `smtp://127.0.0.1:${port}`,
			from: 'Upstate <a@upstate.test>'
		});
		const result = await sendToChannel({
			channel: {
				id: 1,
				name: 'x',
				providerType: 'email',
				settings: { email: 'oncall@example.com' }
			},
			event: alert,
			deps: { ...deps, mailer }
		});
		expect(result).toEqual({ ok: true, status: 250 });
		expect(mails).toHaveLength(1);
		expect(mails[0]).toMatchObject({
			to: 'oncall@example.com',
			subject: '[Upstate] API is down',
			text: SUMMARY
		});
		expect(mails[0].html).toContain('<h2>API is down</h2>');
		expect(mails[0].html).toContain('HTTP 503 &lt;Service Unavailable&gt;');
		expect(mails[0].html).toContain(`<a href="${alert.dashboardUrl}">Open in Upstate</a>`);
		await new Promise<void>((r) => smtp.close(() => r()));
	});
});
