import { z } from 'zod';
import { requireScope, type ServiceContext } from '../context.ts';
import { getChannelInWorkspace } from '../notification-channel/internal.ts';
import { parseInput } from '../parse.ts';

export const ListDeliveryAttemptsInput = z.object({
	notificationChannelId: z.number().int().positive(),
	limit: z.number().int().min(1).max(200).default(50)
});
export type ListDeliveryAttemptsInput = z.input<typeof ListDeliveryAttemptsInput>;

export const DeliveryAttemptOutput = z.object({
	id: z.number(),
	deliveryId: z.number(),
	attempt: z.number(),
	event: z.string(),
	ok: z.boolean(),
	status: z.number(),
	error: z.string().nullable(),
	incidentId: z.number().nullable(),
	at: z.string()
});
export const DeliveryAttemptListOutput = z.object({ data: z.array(DeliveryAttemptOutput) });
export type DeliveryAttemptListOutput = z.infer<typeof DeliveryAttemptListOutput>;

// The channel's delivery log, newest first: every attempt with the vendor's status and error.
export async function listDeliveryAttempts(args: {
	ctx: ServiceContext;
	input: ListDeliveryAttemptsInput;
}): Promise<DeliveryAttemptListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const input = parseInput(ListDeliveryAttemptsInput, args.input);
	await getChannelInWorkspace({
		tx: ctx.db,
		id: input.notificationChannelId,
		workspaceId: ctx.workspace.id
	});
	const rows = await ctx.db.deliveryAttempt.findMany({
		where: { workspaceId: ctx.workspace.id, channelId: input.notificationChannelId },
		include: { delivery: { select: { incidentId: true } } },
		orderBy: [{ at: 'desc' }, { id: 'desc' }],
		take: input.limit
	});
	return {
		data: rows.map((r) => ({
			id: r.id,
			deliveryId: r.deliveryId,
			attempt: r.attempt,
			event: r.event,
			ok: r.ok,
			status: r.status,
			error: r.error,
			incidentId: r.delivery.incidentId,
			at: r.at.toISOString()
		}))
	};
}
