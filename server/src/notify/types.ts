import type { Config } from '../config.ts';
import type { ProviderType } from '../domain/notification-channel/providers.ts';
import type { Mailer } from '../mail/index.ts';

export type NotifyEvent = {
	kind: 'alert' | 'recovery' | 'degraded' | 'test';
	monitor: { id: number; name: string; url: string };
	incidentId?: number | string;
	error?: string;
	at: string; // ISO 8601
	dashboardUrl: string;
};

// A channel as a provider sees it: the plain block merged with its decrypted secrets.
export type ChannelForSend = {
	id: number;
	name: string;
	providerType: ProviderType;
	settings: Record<string, unknown>;
};

export type SendResult = { ok: boolean; status: number; error?: string };
export type NotifyConfig = Config['notify'];
// workspaceId: whose local outbox keeps an e-mail channel's mail (non-production, no SMTP).
export type ProviderDeps = { config: NotifyConfig; mailer: Mailer; workspaceId?: number };
export type Provider = (args: {
	channel: ChannelForSend;
	event: NotifyEvent;
	deps: ProviderDeps;
}) => Promise<SendResult>;
