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

// Sends every due outbox row once. Each row is claimed by a conditional update (only the run
// whose update changed it sends), so overlapping runs and workers never send one row twice.
export async function runDueDeliveries(args: {
	db: Db;
	notifier: Notifier;
	options?: RunDueOptions;
}): Promise<RunDueCounts> {
	const { db, notifier } = args;
	const clock = args.options?.now ?? (() => new Date());
	const now = clock();
	const candidates = await db.delivery.findMany({
		where: due(now),
		orderBy: { id: 'asc' },
		take: args.options?.batch ?? 50,
		select: { id: true }
	});
	const counts: RunDueCounts = { claimed: 0, sent: 0, retried: 0, failed: 0 };
	await Promise.all(
		candidates.map(async ({ id }) => {
			const claim = await db.delivery.updateMany({
				where: { id, ...due(now) },
				data: {
					status: 'sending',
					lockedUntil: new Date(now.getTime() + LOCK_MS),
					attempts: { increment: 1 }
				}
			});
			if (claim.count === 0) return;
			counts.claimed++;
			const outcome = await attempt({ db, notifier, id, clock, options: args.options });
			counts[outcome]++;
		})
	);
	return counts;
}

async function attempt(args: {
	db: Db;
	notifier: Notifier;
	id: number;
	clock: () => Date;
	options?: RunDueOptions;
}): Promise<'sent' | 'retried' | 'failed'> {
	const { db, id } = args;
	const row = await db.delivery.findUniqueOrThrow({ where: { id } });
	const handler = deliveryHandlerFor(row.kind);
	let result: DeliveryResult;
	try {
		result = handler
			? await handler({
					db,
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
				})
			: { ok: false, status: 0, error: `no handler for kind ${row.kind}`, permanent: true };
	} catch (err) {
		result = { ok: false, status: 0, error: (err as Error).message };
	}
	const at = args.clock();
	const outcome = result.ok
		? 'sent'
		: result.permanent || row.attempts >= MAX_ATTEMPTS
			? 'failed'
			: 'retried';
	await db.$transaction([
		db.deliveryAttempt.create({
			data: {
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
			}
		}),
		db.delivery.update({
			where: { id },
			data: {
				status: outcome === 'retried' ? 'pending' : outcome,
				lockedUntil: null,
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
	]);
	const error = result.error ? ` error=${JSON.stringify(result.error)}` : '';
	console.log(
		`[delivery] attempt delivery=${row.id} kind=${row.kind} workspaceId=${row.workspaceId} attempt=${row.attempts} ok=${result.ok} status=${result.status} outcome=${outcome}${error}`
	);
	return outcome;
}
