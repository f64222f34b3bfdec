import { z } from 'zod';
import { requireScope, type ServiceContext } from '../context.ts';
import type { Limits } from '../limits.ts';
import { parseInput } from '../parse.ts';

const DAY_MS = 86_400_000;
const MONTH_MS = 30 * DAY_MS; // the month analytics-retention uses for raw results
export const FINISHED_DELIVERY_STATUSES = ['sent', 'failed', 'superseded'];
const UNFINISHED_DELIVERY_STATUSES = ['pending', 'sending'];
// Longer than any calendar month: the monthly `sms-limit` counts this month's sent SMS attempts.
export const DELIVERY_RETENTION_FLOOR_MS = 32 * DAY_MS;
// Ids per delete statement: Prisma's libSQL adapter allows 999 bound parameters per query.
const BATCH = 500;

export const PruneDeliveriesInput = z
	.object({
		now: z.coerce.date().optional(),
		batchSize: z.number().int().min(1).max(900).optional()
	})
	.strict();
export type PruneDeliveriesInput = z.input<typeof PruneDeliveriesInput>;
export type PruneDeliveriesOutput = { deliveries: number; attempts: number };

// The delivery log is shown next to the check data, so it is kept as long: the plan's
// `data-retention` (months of 30 days), and never less than 32 days, so a "0 months" override
// cannot erase last week's alerts and a 1-month plan still counts all of this month's SMS.
export function deliveryRetentionMs(limits: Limits): number {
	const months = Number.parseInt(limits['data-retention'], 10);
	return Math.max(Number.isFinite(months) ? months * MONTH_MS : 0, DELIVERY_RETENTION_FLOOR_MS);
}

// Deletes one workspace's finished (`sent`, `failed`) outbox rows created before its retention
// window, with their attempt rows; `pending`/`sending` rows stay whatever their age. Each batch is
// its own short transaction, so a first run on a large table never holds the write lock for long.
// Housekeeping, not anyone's change: no audit entry (as analytics-retention). A pruned dedupe key
// could be enqueued again, but every key names a one-off event (an incident, an update, a claimed
// maintenance notice, a forward's timestamp) that is not replayed a month later.
export async function pruneDeliveries(args: {
	ctx: ServiceContext;
	input?: PruneDeliveriesInput;
}): Promise<PruneDeliveriesOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(PruneDeliveriesInput, args.input ?? {});
	const batchSize = input.batchSize ?? BATCH;
	const now = input.now ?? new Date();
	const before = new Date(now.getTime() - deliveryRetentionMs(ctx.workspace.limits));
	const counts: PruneDeliveriesOutput = { deliveries: 0, attempts: 0 };
	// One status at a time, oldest first: with the status fixed, the (workspace_id, status,
	// created_at) index yields each batch in order without sorting every old row first.
	for (const status of FINISHED_DELIVERY_STATUSES) {
		for (;;) {
			const ids = (
				await ctx.db.delivery.findMany({
					where: { workspaceId: ctx.workspace.id, status, createdAt: { lt: before } },
					select: { id: true },
					orderBy: { createdAt: 'asc' },
					take: batchSize
				})
			).map((d) => d.id);
			if (ids.length === 0) break;
			// By id (the ids come from this workspace's rows) with a guard no index can serve:
			// `status = ?` or a workspace filter makes SQLite walk an index instead of the primary
			// key. Attempts are deleted explicitly to count them (the FK cascades too).
			const [attempts, deliveries] = await ctx.db.$transaction([
				ctx.db.deliveryAttempt.deleteMany({ where: { deliveryId: { in: ids } } }),
				ctx.db.delivery.deleteMany({
					where: { id: { in: ids }, status: { notIn: UNFINISHED_DELIVERY_STATUSES } }
				})
			]);
			counts.attempts += attempts.count;
			counts.deliveries += deliveries.count;
			if (ids.length < batchSize) break;
		}
	}
	return counts;
}
