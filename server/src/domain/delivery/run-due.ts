import { randomUUID } from 'node:crypto';
import type { Delivery } from '@prisma/client';
import type { Db } from '../../db/client.ts';
import type { Notifier } from '../../notify/index.ts';
import { DEFAULT_BASE_DELAY_MS, MAX_ATTEMPTS, retryDelayMs } from './backoff.ts';
import { deliveryHandlerFor, type DeliveryResult } from './registry.ts';

// A claimed row is ours for this long; a process that dies mid-send leaves it to be taken again.
const LOCK_MS = 60_000;

export type RunDueOptions = { baseDelayMs?: number; batch?: number; now?: () => Date };
export type RunDueCounts = { claimed: number; sent: number; retried: number; failed: number };

const due = (now: Date) => ({
	OR: [
		{ status: 'pending', nextAttemptAt: { lte: now } },
		{ status: 'sending', lockedUntil: { lt: now } }
	]
});

// Sends every due outbox row once. The batch is claimed by one conditional update that stamps
// the run's id (only rows still due change, so overlapping runs and workers never send one row
// twice); results are written back in one transaction. Two writes per batch, not per row, is
// what lets a 10,000-subscriber fan-out go out at SMTP speed.
export async function runDueDeliveries(args: {
	db: Db;
	notifier: Notifier;
	options?: RunDueOptions;
}): Promise<RunDueCounts> {
	const { db, notifier } = args;
	const clock = args.options?.now ?? (() => new Date());
	const now = clock();
	const counts: RunDueCounts = { claimed: 0, sent: 0, retried: 0, failed: 0 };
	const candidates = await db.delivery.findMany({
		where: due(now),
		orderBy: { id: 'asc' },
		take: args.options?.batch ?? 200,
		select: { id: true }
	});
	if (candidates.length === 0) return counts;
	const claimedBy = randomUUID();
	const claim = await db.delivery.updateMany({
		where: { id: { in: candidates.map((c) => c.id) }, ...due(now) },
		data: {
			status: 'sending',
			lockedUntil: new Date(now.getTime() + LOCK_MS),
			attempts: { increment: 1 },
			claimedBy
		}
	});
	if (claim.count === 0) return counts;
	const rows = await db.delivery.findMany({
		where: { claimedBy, status: 'sending' },
		orderBy: { id: 'asc' }
	});
	counts.claimed = rows.length;
	const results = await Promise.all(rows.map((row) => attempt({ db, notifier, row })));
	const at = clock();
	const outcomes = rows.map((row, i) => {
		const result = results[i] as DeliveryResult;
		const outcome: 'sent' | 'retried' | 'failed' = result.ok
			? 'sent'
			: result.permanent || row.attempts >= MAX_ATTEMPTS
				? 'failed'
				: 'retried';
		counts[outcome]++;
		return { row, result, outcome };
	});
	try {
		await db.$transaction([
			db.deliveryAttempt.createMany({
				data: outcomes.map(({ row, result }) => ({
					deliveryId: row.id,
					workspaceId: row.workspaceId,
					channelId: row.channelId,
					attempt: row.attempts,
					ok: result.ok,
					status: result.status,
					error: result.error ?? null,
					event: result.event ?? '',
					provider: result.provider ?? '',
					at
				}))
			}),
			...outcomes.map(({ row, result, outcome }) =>
				db.delivery.updateMany({
					where: { id: row.id, claimedBy },
					data: {
						status: outcome === 'retried' ? 'pending' : outcome,
						lockedUntil: null,
						claimedBy: null,
						lastError: result.error ?? null,
						sentAt: result.ok ? at : null,
						nextAttemptAt:
							outcome === 'retried'
								? new Date(
										at.getTime() +
											retryDelayMs(row.attempts, args.options?.baseDelayMs ?? DEFAULT_BASE_DELAY_MS)
									)
								: row.nextAttemptAt
					}
				})
			)
		]);
	} finally {
		for (const result of results) result.release?.();
	}
	for (const { row, result, outcome } of outcomes) {
		const error = result.error ? ` error=${JSON.stringify(result.error)}` : '';
		console.log(
			`[delivery] attempt delivery=${row.id} kind=${row.kind} workspaceId=${row.workspaceId} attempt=${row.attempts} ok=${result.ok} status=${result.status} outcome=${outcome}${error}`
		);
	}
	return counts;
}

async function attempt(args: {
	db: Db;
	notifier: Notifier;
	row: Delivery;
}): Promise<DeliveryResult> {
	const { row } = args;
	const handler = deliveryHandlerFor(row.kind);
	if (!handler)
		return { ok: false, status: 0, error: `no handler for kind ${row.kind}`, permanent: true };
	try {
		return await handler({
			db: args.db,
			notifier: args.notifier,
			delivery: {
				id: row.id,
				workspaceId: row.workspaceId,
				kind: row.kind,
				payload: JSON.parse(row.payload) as Record<string, unknown>,
				channelId: row.channelId,
				incidentId: row.incidentId,
				attempt: row.attempts
			}
		});
	} catch (err) {
		return { ok: false, status: 0, error: (err as Error).message };
	}
}
