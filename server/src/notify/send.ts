import type { ProviderType } from '../domain/notification-channel/providers.ts';
import { sendDiscord } from './providers/discord.ts';
import { sendEmail } from './providers/email.ts';
import { sendGoogleChat } from './providers/google-chat.ts';
import { sendGrafanaOnCall } from './providers/grafana-oncall.ts';
import { sendMsTeams } from './providers/ms-teams.ts';
import { sendNtfy } from './providers/ntfy.ts';
import { sendOpsgenie } from './providers/opsgenie.ts';
import { sendPagerDuty } from './providers/pagerduty.ts';
import { sendSlack } from './providers/slack.ts';
import { sendTelegram } from './providers/telegram.ts';
import { sendSms, sendWhatsApp } from './providers/twilio.ts';
import { sendWebhook } from './providers/webhook.ts';
import type { ChannelForSend, NotifyEvent, Provider, ProviderDeps, SendResult } from './types.ts';

export const PROVIDERS: Record<ProviderType, Provider> = {
	discord: sendDiscord,
	email: sendEmail,
	slack: sendSlack,
	pagerduty: sendPagerDuty,
	opsgenie: sendOpsgenie,
	webhook: sendWebhook,
	telegram: sendTelegram,
	sms: sendSms,
	whatsapp: sendWhatsApp,
	google_chat: sendGoogleChat,
	grafana_oncall: sendGrafanaOnCall,
	ntfy: sendNtfy,
	ms_teams: sendMsTeams
};

// The one entry point for delivery (tests, and later the incident outbox). Never throws.
export async function sendToChannel(args: {
	channel: ChannelForSend;
	event: NotifyEvent;
	deps: ProviderDeps;
}): Promise<SendResult> {
	try {
		const result = await PROVIDERS[args.channel.providerType](args);
		console.log(
			`[notify] sent channel=${args.channel.id} provider=${args.channel.providerType} kind=${args.event.kind} ok=${result.ok} status=${result.status}`
		);
		return result;
	} catch (err) {
		console.error(`[notify] failed channel=${args.channel.id} ${(err as Error).stack}`);
		return { ok: false, status: 0, error: 'internal error while sending' };
	}
}
