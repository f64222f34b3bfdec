import { z } from 'zod';
import { PageLocator, ReaderFacts } from '../status-page/public/schemas.ts';

const id = z.number().int().positive();

// Status site: a reader asks for mail about a page (optionally only some of its components).
export const SubscribeInput = z.object({
	page: PageLocator,
	reader: ReaderFacts,
	email: z.email().max(254),
	componentIds: z.array(id).max(100).default([])
});
export type SubscribeInput = z.input<typeof SubscribeInput>;

// The mailed confirm / unsubscribe links carry one token each; never logged.
export const SubscriberTokenInput = z.object({
	page: PageLocator,
	token: z.string().min(10).max(200)
});
export type SubscriberTokenInput = z.input<typeof SubscriberTokenInput>;

export const ListSubscribersInput = z.object({ pageId: id });
export type ListSubscribersInput = z.input<typeof ListSubscribersInput>;

export const AddWebhookSubscriberInput = z.object({
	pageId: id,
	url: z.url({ protocol: /^https?$/ }).max(2000),
	componentIds: z.array(id).max(100).default([])
});
export type AddWebhookSubscriberInput = z.input<typeof AddWebhookSubscriberInput>;

export const SubscriberIdInput = z.object({ pageId: id, subscriberId: id });
export type SubscriberIdInput = z.input<typeof SubscriberIdInput>;

export const SubscriberOutput = z.object({
	id: z.number(),
	pageId: z.number(),
	type: z.enum(['email', 'webhook']),
	email: z.string().nullable(),
	webhookUrl: z.string().nullable(),
	componentIds: z.array(z.number()),
	status: z.enum(['pending', 'confirmed']),
	createdAt: z.string()
});
export type SubscriberOutput = z.infer<typeof SubscriberOutput>;

export const SubscriberListOutput = z.object({ data: z.array(SubscriberOutput) });
export type SubscriberListOutput = z.infer<typeof SubscriberListOutput>;

// Shown once, at creation: receivers verify X-Upstate-Signature with it.
export const WebhookSubscriberOutput = SubscriberOutput.extend({ signingSecret: z.string() });
export type WebhookSubscriberOutput = z.infer<typeof WebhookSubscriberOutput>;
