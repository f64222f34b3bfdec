import { z } from 'zod';

// Provider blocks (spec 2.11) plus ms_teams, the team-chat provider the spec leaves unnamed.
export const PROVIDER_TYPES = [
	'discord',
	'email',
	'slack',
	'pagerduty',
	'opsgenie',
	'webhook',
	'telegram',
	'sms',
	'whatsapp',
	'google_chat',
	'grafana_oncall',
	'ntfy',
	'ms_teams'
] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
const phone = z
	.string()
	.regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number such as +14155550100');
const secret = z.string().trim().min(1).max(512);
const HeaderName = z
	.string()
	.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'must be a valid HTTP header name');
const HeaderValue = z
	.string()
	.max(2048)
	.regex(/^[^\r\n]*$/, 'must not contain line breaks');

export const BLOCKS = {
	discord: z.object({ webhook_url: httpUrl }).strict(),
	email: z.object({ email: z.email().max(320) }).strict(),
	slack: z.object({ webhook_url: httpUrl }).strict(),
	pagerduty: z.object({ integration_key: secret }).strict(),
	opsgenie: z.object({ api_key: secret, region: z.enum(['us', 'eu']) }).strict(),
	webhook: z
		.object({
			endpoint: httpUrl,
			headers: z
				.array(z.object({ key: HeaderName, value: HeaderValue }).strict())
				.max(20)
				.optional()
		})
		.strict(),
	telegram: z
		.object({
			// Telegram's own API takes the id as a number or a string; it is stored as text.
			chat_id: z
				.union([z.string(), z.number().int()])
				.transform(String)
				.pipe(
					z
						.string()
						.regex(
							/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/,
							'must be a numeric chat id or @channelname'
						)
				)
		})
		.strict(),
	sms: z.object({ phone_number: phone }).strict(),
	whatsapp: z.object({ phone_number: phone }).strict(),
	google_chat: z.object({ webhook_url: httpUrl }).strict(),
	grafana_oncall: z.object({ webhook_url: httpUrl }).strict(),
	ntfy: z
		.object({
			topic: z.string().regex(/^[-_A-Za-z0-9]{1,64}$/, 'must be 1-64 letters, digits, - or _'),
			server_url: httpUrl.optional(),
			token: secret.optional()
		})
		.strict(),
	ms_teams: z.object({ webhook_url: httpUrl }).strict()
} satisfies Record<ProviderType, z.ZodObject>;

// Sensitive fields live encrypted in `secrets` and are shown only as hints. Webhook headers
// count as sensitive: they usually carry the receiver's credentials.
export const SENSITIVE: Record<ProviderType, string[]> = {
	discord: ['webhook_url'],
	email: [],
	slack: ['webhook_url'],
	pagerduty: ['integration_key'],
	opsgenie: ['api_key'],
	webhook: ['headers'],
	telegram: [],
	sms: [],
	whatsapp: [],
	google_chat: ['webhook_url'],
	grafana_oncall: ['webhook_url'],
	ntfy: ['token'],
	ms_teams: ['webhook_url']
};

// What outputs show of a secret: its last four characters, or the header names of a list.
const last4 = (s: string) => `…${s.slice(-4)}`;
export function hintsFor(secrets: Record<string, unknown>): Record<string, string> {
	const hints: Record<string, string> = {};
	for (const [k, v] of Object.entries(secrets)) {
		if (typeof v === 'string') hints[k] = last4(v);
		else if (Array.isArray(v))
			hints[k] = v.map((h) => (h as { key: string }).key).join(', ') || '(none)';
	}
	return hints;
}

// Paid channel types need their own plan key (spec 2.3).
export const PROVIDER_FEATURE = {
	pagerduty: 'pagerduty',
	opsgenie: 'opsgenie',
	grafana_oncall: 'grafana-oncall',
	whatsapp: 'whatsapp',
	sms: 'sms'
} as const;

// On edit every field may be left out and the stored value is kept (secrets included); the merged
// block is then checked against BLOCKS. null clears an optional field.
export const UPDATE_BLOCKS = {
	discord: BLOCKS.discord.partial(),
	email: BLOCKS.email.partial(),
	slack: BLOCKS.slack.partial(),
	pagerduty: BLOCKS.pagerduty.partial(),
	opsgenie: BLOCKS.opsgenie.partial(),
	webhook: BLOCKS.webhook
		.extend({ headers: BLOCKS.webhook.shape.headers.unwrap().nullable() })
		.partial(),
	telegram: BLOCKS.telegram.partial(),
	sms: BLOCKS.sms.partial(),
	whatsapp: BLOCKS.whatsapp.partial(),
	google_chat: BLOCKS.google_chat.partial(),
	grafana_oncall: BLOCKS.grafana_oncall.partial(),
	ntfy: BLOCKS.ntfy
		.extend({
			server_url: BLOCKS.ntfy.shape.server_url.unwrap().nullable(),
			token: BLOCKS.ntfy.shape.token.unwrap().nullable()
		})
		.partial(),
	ms_teams: BLOCKS.ms_teams.partial()
} satisfies Record<ProviderType, z.ZodObject>;
