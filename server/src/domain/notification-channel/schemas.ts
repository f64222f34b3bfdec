import { z } from 'zod';
import { Pagination } from '../monitor/schemas.ts';
import { BLOCKS, PROVIDER_TYPES, UPDATE_BLOCKS, type ProviderType } from './providers.ts';

export { PROVIDER_TYPES, type ProviderType } from './providers.ts';

const MonitorIds = z.array(z.number().int().positive()).max(1000);
const Name = z.string().trim().max(256);
const ProviderTypeEnum = z.enum(PROVIDER_TYPES);

const optionalBlocks = <T extends Record<ProviderType, z.ZodObject>>(blocks: T) =>
	Object.fromEntries(PROVIDER_TYPES.map((t) => [t, blocks[t].optional()])) as {
		[K in ProviderType]: z.ZodOptional<T[K]>;
	};

// Exactly one provider block, the one named by provider_type (spec 2.11).
export function blockIssues(
	providerType: ProviderType,
	input: Record<string, unknown>,
	requireBlock: boolean
): Array<{ path: string; message: string }> {
	const issues = PROVIDER_TYPES.filter((t) => t !== providerType && input[t] !== undefined).map(
		(t) => ({ path: t, message: `a ${t} block does not match provider_type ${providerType}` })
	);
	if (requireBlock && input[providerType] === undefined)
		issues.push({ path: providerType, message: `required for provider_type ${providerType}` });
	return issues;
}

export const CreateNotificationChannelInput = z
	.object({
		name: Name.default(''),
		provider_type: ProviderTypeEnum,
		monitor_ids: MonitorIds.default([]),
		...optionalBlocks(BLOCKS)
	})
	.strict()
	.superRefine((v, ctx) => {
		for (const issue of blockIssues(v.provider_type, v, true))
			ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
	});
export type CreateNotificationChannelInput = z.input<typeof CreateNotificationChannelInput>;

// Omitted fields are kept, including sensitive ones; monitor_ids replaces the wiring when given.
export const UpdateNotificationChannelInput = z
	.object({
		notificationChannelId: z.number().int().positive(),
		name: Name.optional(),
		provider_type: ProviderTypeEnum.optional(),
		monitor_ids: MonitorIds.optional(),
		...optionalBlocks(UPDATE_BLOCKS)
	})
	.strict();
export type UpdateNotificationChannelInput = z.input<typeof UpdateNotificationChannelInput>;

export const NotificationChannelIdInput = z.object({
	notificationChannelId: z.number().int().positive()
});
export type NotificationChannelIdInput = z.infer<typeof NotificationChannelIdInput>;

export const ListNotificationChannelsInput = z
	.object({
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(200).default(50)
	})
	.default({ page: 1, perPage: 50 });
export type ListNotificationChannelsInput = z.input<typeof ListNotificationChannelsInput>;

const outputBlocks = Object.fromEntries(
	PROVIDER_TYPES.map((t) => [t, z.record(z.string(), z.unknown()).optional()])
) as { [K in ProviderType]: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>> };

// The provider block carries the non-sensitive fields only; sensitive ones appear as hints
// (`…abcd`, the last four characters), never in full.
export const NotificationChannelOutput = z.object({
	id: z.number(),
	name: z.string(),
	provider_type: ProviderTypeEnum,
	monitor_ids: z.array(z.number()),
	monitors: z.array(z.object({ id: z.number(), name: z.string() })),
	...outputBlocks,
	secret_hints: z.record(z.string(), z.string()),
	created_at: z.string(),
	updated_at: z.string()
});
export type NotificationChannelOutput = z.infer<typeof NotificationChannelOutput>;

// A webhook channel's signing secret is returned once, by the write that generated it.
export const NotificationChannelWriteOutput = NotificationChannelOutput.extend({
	signing_secret: z.string().optional()
});
export type NotificationChannelWriteOutput = z.infer<typeof NotificationChannelWriteOutput>;

export const NotificationChannelListOutput = z.object({
	data: z.array(NotificationChannelOutput),
	pagination: Pagination
});
export type NotificationChannelListOutput = z.infer<typeof NotificationChannelListOutput>;

export const SendTestNotificationOutput = z.object({
	ok: z.boolean(),
	status: z.number(),
	error: z.string().optional()
});
export type SendTestNotificationOutput = z.infer<typeof SendTestNotificationOutput>;
