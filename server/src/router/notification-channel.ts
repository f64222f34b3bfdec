import {
	CreateNotificationChannelInput,
	ListNotificationChannelsInput,
	NotificationChannelIdInput,
	NotificationChannelListOutput,
	NotificationChannelOutput,
	NotificationChannelWriteOutput,
	SendTestNotificationOutput,
	UpdateNotificationChannelInput,
	createNotificationChannel,
	getNotificationChannel,
	listNotificationChannels,
	removeNotificationChannel,
	sendTestNotification,
	updateNotificationChannel
} from '../domain/notification-channel/index.ts';
import {
	DeliveryAttemptListOutput,
	ListDeliveryAttemptsInput,
	listDeliveryAttempts
} from '../domain/delivery/index.ts';
import { notifierFor } from '../notify/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['notification channels'];

export const notificationChannelRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/notifications',
				summary: 'List notification channels and their wired monitors (never their credentials)',
				tags
			},
			mcp: {
				name: 'list_notifications',
				description:
					'List notification channels: name, provider_type, non-sensitive settings and the monitors each is wired to. Credentials are never exposed (only masked hints).'
			}
		})
		.input(ListNotificationChannelsInput)
		.output(NotificationChannelListOutput)
		.query(({ ctx, input }) => listNotificationChannels({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/notifications/{notificationChannelId}',
				summary: 'Get a notification channel (secrets as masked hints)',
				tags
			}
		})
		.input(NotificationChannelIdInput)
		.output(NotificationChannelOutput)
		.query(({ ctx, input }) => getNotificationChannel({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/notifications',
				summary:
					'Create a notification channel with exactly one provider block matching provider_type',
				tags,
				successStatus: 201
			}
		})
		.input(CreateNotificationChannelInput)
		.output(NotificationChannelWriteOutput)
		.mutation(({ ctx, input }) =>
			createNotificationChannel({
				ctx: ctx.service,
				input,
				vault: notifierFor(ctx.upstate).vault,
				allowPrivateTargets: ctx.upstate.config.notify.allowPrivateTargets
			})
		),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/notifications/{notificationChannelId}',
				summary: 'Update a notification channel; omitted secrets are kept, monitor_ids is replaced',
				tags
			}
		})
		.input(UpdateNotificationChannelInput)
		.output(NotificationChannelWriteOutput)
		.mutation(({ ctx, input }) =>
			updateNotificationChannel({
				ctx: ctx.service,
				input,
				vault: notifierFor(ctx.upstate).vault,
				allowPrivateTargets: ctx.upstate.config.notify.allowPrivateTargets
			})
		),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/notifications/{notificationChannelId}',
				summary: 'Delete a notification channel',
				tags
			}
		})
		.input(NotificationChannelIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeNotificationChannel({ ctx: ctx.service, input })),
	sendTest: writeProcedure
		.meta({
			connect: { method: 'SendTestNotification' },
			rest: {
				method: 'POST',
				path: '/v1/notifications/{notificationChannelId}/test',
				summary: "Send a test notification and return the vendor's response status",
				tags
			}
		})
		.input(NotificationChannelIdInput)
		.output(SendTestNotificationOutput)
		.mutation(({ ctx, input }) =>
			sendTestNotification({ ctx: ctx.service, input, notifier: notifierFor(ctx.upstate) })
		),
	deliveries: readProcedure
		.meta({
			connect: { method: 'ListNotificationDeliveries' },
			rest: {
				method: 'GET',
				path: '/v1/notifications/{notificationChannelId}/deliveries',
				summary: "The channel's delivery log: every send attempt, newest first",
				tags
			}
		})
		.input(ListDeliveryAttemptsInput)
		.output(DeliveryAttemptListOutput)
		.query(({ ctx, input }) => listDeliveryAttempts({ ctx: ctx.service, input }))
});
