// The provider blocks of spec 2.11 as form fields; pure data shared by the server and the pages.
export type ProviderField = {
	name: string;
	label: string;
	input: 'text' | 'url' | 'email' | 'tel' | 'password' | 'select' | 'headers';
	required?: boolean;
	sensitive?: boolean;
	options?: string[];
	placeholder?: string;
};
export type ProviderForm = { type: string; label: string; fields: ProviderField[] };

const webhookUrl = (placeholder: string): ProviderField[] => [
	{
		name: 'webhook_url',
		label: 'Webhook URL',
		input: 'url',
		required: true,
		sensitive: true,
		placeholder
	}
];

export const PROVIDER_FORMS: ProviderForm[] = [
	{
		type: 'email',
		label: 'E-mail',
		fields: [{ name: 'email', label: 'E-mail address', input: 'email', required: true }]
	},
	{ type: 'slack', label: 'Slack', fields: webhookUrl('https://hooks.slack.com/services/…') },
	{ type: 'discord', label: 'Discord', fields: webhookUrl('https://discord.com/api/webhooks/…') },
	{ type: 'ms_teams', label: 'Microsoft Teams', fields: webhookUrl('https://…/workflows/…') },
	{
		type: 'google_chat',
		label: 'Google Chat',
		fields: webhookUrl('https://chat.googleapis.com/v1/spaces/…')
	},
	{
		type: 'pagerduty',
		label: 'PagerDuty',
		fields: [
			{
				name: 'integration_key',
				label: 'Integration key (Events API v2)',
				input: 'password',
				required: true,
				sensitive: true
			}
		]
	},
	{
		type: 'opsgenie',
		label: 'Opsgenie',
		fields: [
			{ name: 'api_key', label: 'API key', input: 'password', required: true, sensitive: true },
			{ name: 'region', label: 'Region', input: 'select', required: true, options: ['us', 'eu'] }
		]
	},
	{
		type: 'grafana_oncall',
		label: 'Grafana OnCall',
		fields: webhookUrl('https://…/integrations/v1/formatted_webhook/…')
	},
	{
		type: 'webhook',
		label: 'Webhook',
		fields: [
			{
				name: 'endpoint',
				label: 'Endpoint URL',
				input: 'url',
				required: true,
				placeholder: 'https://example.com/hooks/upstate'
			},
			{
				name: 'headers',
				label: 'Headers, one "Name: value" per line',
				input: 'headers',
				sensitive: true
			}
		]
	},
	{
		type: 'telegram',
		label: 'Telegram',
		fields: [{ name: 'chat_id', label: 'Chat id or @channel', input: 'text', required: true }]
	},
	{
		type: 'sms',
		label: 'SMS',
		fields: [
			{
				name: 'phone_number',
				label: 'Phone number',
				input: 'tel',
				required: true,
				placeholder: '+14155550100'
			}
		]
	},
	{
		type: 'whatsapp',
		label: 'WhatsApp',
		fields: [
			{
				name: 'phone_number',
				label: 'Phone number',
				input: 'tel',
				required: true,
				placeholder: '+14155550100'
			}
		]
	},
	{
		type: 'ntfy',
		label: 'ntfy',
		fields: [
			{ name: 'topic', label: 'Topic', input: 'text', required: true },
			{ name: 'server_url', label: 'Server URL (default https://ntfy.sh)', input: 'url' },
			{ name: 'token', label: 'Access token', input: 'password', sensitive: true }
		]
	}
];

export const providerForm = (type: string | null | undefined): ProviderForm | undefined =>
	PROVIDER_FORMS.find((p) => p.type === type);

export const providerLabel = (type: string) => providerForm(type)?.label ?? type;
