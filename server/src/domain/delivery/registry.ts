import type { Db } from '../../db/client.ts';
import type { Notifier } from '../../notify/index.ts';
import { sendSubscriberEmail } from '../subscriber/email-handler.ts';
import { sendSubscriberWebhook } from '../subscriber/webhook-handler.ts';
import { sendChannelDelivery } from './channel-handler.ts';

export type DeliveryRow = {
	id: number;
	workspaceId: number;
	kind: string;
	payload: Record<string, unknown>;
	channelId: number | null;
	incidentId: number | null;
	attempt: number; // 1 for the first try
};

// `permanent` stops the retries at once (e.g. a plan limit): the row is marked failed.
export type DeliveryResult = {
	ok: boolean;
	status: number;
	error?: string;
	permanent?: boolean;
	event?: string; // shown in the delivery log
	provider?: string;
	// Called once the attempt is recorded (or its recording failed): frees what the handler held
	// until then, e.g. an SMS counted against the sms-limit before the log shows it.
	release?: () => void;
};

export type DeliveryHandler = (args: {
	db: Db;
	notifier: Notifier;
	delivery: DeliveryRow;
}) => Promise<DeliveryResult>;

// One handler per outbox `kind`: `channel` is a monitor alert to a notification channel;
// `subscriber-email` / `subscriber-webhook` are status page notices to one subscriber.
const HANDLERS = new Map<string, DeliveryHandler>([
	['channel', sendChannelDelivery],
	['subscriber-email', sendSubscriberEmail],
	['subscriber-webhook', sendSubscriberWebhook]
]);

export function registerDeliveryHandler(kind: string, handler: DeliveryHandler): void {
	HANDLERS.set(kind, handler);
}

export function deliveryHandlerFor(kind: string): DeliveryHandler | undefined {
	return HANDLERS.get(kind);
}
