import { z } from 'zod';
import {
	AddWebhookSubscriberInput,
	ListSubscribersInput,
	SubscribeInput,
	SubscriberIdInput,
	SubscriberListOutput,
	SubscriberTokenInput,
	WebhookSubscriberOutput,
	addWebhookSubscriber,
	confirmSubscription,
	exportSubscribersCsv,
	listSubscribers,
	removeSubscriber,
	subscribeToStatusPage,
	unsubscribeFromStatusPage
} from '../domain/subscriber/index.ts';
import { notifierFor } from '../notify/index.ts';
import { DeletedOutput } from './shared.ts';
import { publicDeps } from './status-page.ts';
import { createTRPCRouter, publicProcedure, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['status page subscribers'];

export const subscriberRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/status-pages/{pageId}/subscribers',
				summary: 'List the subscribers of a status page',
				tags
			}
		})
		.input(ListSubscribersInput)
		.output(SubscriberListOutput)
		.query(({ ctx, input }) => listSubscribers({ ctx: ctx.service, input })),
	addWebhook: writeProcedure
		.meta({
			connect: { method: 'CreateWebhookSubscriber' },
			rest: {
				method: 'POST',
				path: '/v1/status-pages/{pageId}/subscribers',
				summary: 'Add a webhook subscriber (the signing secret is shown only in this answer)',
				tags,
				successStatus: 201
			}
		})
		.input(AddWebhookSubscriberInput)
		.output(WebhookSubscriberOutput)
		.mutation(({ ctx, input }) =>
			addWebhookSubscriber({ ctx: ctx.service, input, vault: notifierFor(ctx.upstate).vault })
		),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/status-pages/{pageId}/subscribers/{subscriberId}',
				summary: 'Remove a subscriber',
				tags
			}
		})
		.input(SubscriberIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeSubscriber({ ctx: ctx.service, input })),
	// The dashboard's CSV download (in-process only).
	exportCsv: readProcedure
		.input(ListSubscribersInput)
		.output(z.string())
		.query(({ ctx, input }) => exportSubscribersCsv({ ctx: ctx.service, input })),
	// The status site's subscribe form and mailed links; never exposed over HTTP (STYLE 34).
	subscribe: publicProcedure
		.input(SubscribeInput)
		.output(z.object({ ok: z.literal(true) }))
		.mutation(({ ctx, input }) => subscribeToStatusPage({ deps: publicDeps(ctx), input })),
	confirm: publicProcedure
		.input(SubscriberTokenInput)
		.output(z.object({ confirmed: z.literal(true) }))
		.mutation(({ ctx, input }) => confirmSubscription({ deps: publicDeps(ctx), input })),
	unsubscribe: publicProcedure
		.input(SubscriberTokenInput)
		.output(z.object({ unsubscribed: z.literal(true) }))
		.mutation(({ ctx, input }) => unsubscribeFromStatusPage({ deps: publicDeps(ctx), input }))
});
