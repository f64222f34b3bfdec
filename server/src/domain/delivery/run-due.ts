import { randomUUID } from 'node:crypto';
import type { Delivery } from '@prisma/client';
import { crashPoint } from '../../crash-point.ts';
import type { Db } from '../../db/client.ts';
import type { Notifier } from '../../notify/index.ts';
import { DEFAULT_BASE_DELAY_MS, MAX_ATTEMPTS, retryDelayMs } from './backoff.ts';
import { PROCESS_ID, releaseDeadClaims } from './claims.ts';
import { claimableInOrder, eventKind, supersedeData } from './order.ts';
import { deliveryHandlerFor, type DeliveryResult } from './registry.ts';

// A claimed row is ours for this long; a process on another machine that dies mid-send leaves
// it to be taken again then (one on this machine is released at once: claims.ts).
const LOCK_MS = 60_000;

export type RunDueOptions = { baseDelayMs?: number; batch?: number; now?: () => Date };
export type RunDueCounts = {
	claimed: number;
	sent: number;
	retried: number;
	failed: number;
	superseded: number;
};
type Outcome = 'sent' | 'retried' | 'failed' | 'superseded' | 'deferred';

const due = (now: Date) => ({
	OR: [
		{ status: 'pending', nextAttemptAt: { lte: now } },
		{ status: 'sending', lockedUntil: { lt: now } }
	]
});

// Sends every due outbox row once. The batch is claimed in one transaction that also keeps
// the order of rows sharing an `orderKey` (order.ts); overlapping runs and workers never send
// one row twice. Rows of one key are sent one after another, the rest concurrently; results are
// written back in one transaction. Two writes per batch, not per row, is what lets a
// 10,000-subscriber fan-out go out at SMTP speed.
export async function runDueDeliveries(args: {
	db: Db;
	notifier: Notifier;
	options?: RunDueOptions;
}): Promise<RunDueCounts> {
	const { db, notifier } = args;
	const clock = args.options?.now ?? (() => new Date());
	const counts: RunDueCounts = { claimed: 0, sent: 0, retried: 0, failed: 0, superseded: 0 };
	await releaseDeadClaims(db);
	const now = clock();
	// Nothing due (most polls): no write lock taken.
	if (!(await db.delivery.findFirst({ where: due(now), select: { id: true } }))) return counts;
	const claimedBy = randomUUID();
	const claimed = await db.$transaction(async (tx) => {
		const candidates = await tx.delivery.findMany({
			where: due(now),
			orderBy: { id: 'asc' },
			take: args.options?.batch ?? 200,
			select: { id: true, orderKey: true, payload: true }
		});
		if (candidates.length === 0) return { count: 0, superseded: 0 };
		const { ids, superseded } = await claimableInOrder(tx, candidates, now);
		if (ids.length === 0) return { count: 0, superseded };
		const claim = await tx.delivery.updateMany({
			where: { id: { in: ids }, ...due(now) },
			data: {
				status: 'sending',
				lockedUntil: new Date(now.getTime() + LOCK_MS),
				attempts: { increment: 1 },
				claimedBy,
				claimedByProcess: PROCESS_ID
			}
		});
		return { count: claim.count, superseded };
	});
	counts.superseded += claimed.superseded;
	if (claimed.count === 0) return counts;
	const rows = await db.delivery.findMany({
		where: { claimedBy, status: 'sending' },
		orderBy: { id: 'asc' }
	});
	counts.claimed = rows.length;
	const groups = new Map<string, Delivery[]>();
	for (const row of rows) {
		const key = row.orderKey ?? `row:${row.id}`;
		groups.set(key, [...(groups.get(key) ?? []), row]);
	}
	const outcomes = (
		await Promise.all([...groups.values()].map((group) => sendInOrder({ db, notifier, group })))
	).flat();
	const at = clock();
	for (const { outcome } of outcomes) if (outcome !== 'deferred') counts[outcome]++;
	try {
		await db.$transaction([
			db.deliveryAttempt.createMany({
				data: outcomes
					.filter((o) => o.outcome !== 'deferred')
					.map(({ row, result }) => ({
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
					data: writeBack({ row, result, outcome, at, baseDelayMs: args.options?.baseDelayMs })
				})
			)
		]);
	} finally {
		for (const { result } of outcomes) result.release?.();
	}
	for (const { row, result, outcome } of outcomes) {
		if (outcome === 'deferred') continue;
		const error = result.error ? ` error=${JSON.stringify(result.error)}` : '';
		console.log(
			`[delivery] attempt delivery=${row.id} kind=${row.kind} workspaceId=${row.workspaceId} attempt=${row.attempts} ok=${result.ok} status=${result.status} outcome=${outcome}${error}`
		);
	}
	return counts;
}

function writeBack(args: {
	row: Delivery;
	result: DeliveryResult;
	outcome: Outcome;
	at: Date;
	baseDelayMs: number | undefined;
}) {
	const { row, result, outcome, at } = args;
	const released = { lockedUntil: null, claimedBy: null, claimedByProcess: null };
	// Not tried: an earlier row of its key failed first; it waits for that one, attempt unspent.
	if (outcome === 'deferred')
		return { ...released, status: 'pending', attempts: row.attempts - 1, nextAttemptAt: at };
	if (outcome === 'superseded') return { ...released, ...supersedeData(result.error) };
	return {
		...released,
		status: outcome === 'retried' ? 'pending' : outcome,
		lastError: result.error ?? null,
		sentAt: result.ok ? at : null,
		nextAttemptAt:
			outcome === 'retried'
				? new Date(
						at.getTime() + retryDelayMs(row.attempts, args.baseDelayMs ?? DEFAULT_BASE_DELAY_MS)
					)
				: row.nextAttemptAt
	};
}

// One key's rows, oldest first. A row that fails and will be retried holds back the rest, except
// that a recovery behind a failed alert goes out and the alert is dropped as superseded: sent
// after its recovery it would reopen the incident at receivers that keep the last event.
async function sendInOrder(args: {
	db: Db;
	notifier: Notifier;
	group: Delivery[];
}): Promise<Array<{ row: Delivery; result: DeliveryResult; outcome: Outcome }>> {
	const out: Array<{ row: Delivery; result: DeliveryResult; outcome: Outcome }> = [];
	const { group } = args;
	for (let i = 0; i < group.length; i++) {
		const row = group[i] as Delivery;
		const result = await attempt({ db: args.db, notifier: args.notifier, row });
		const final = result.ok || result.permanent || row.attempts >= MAX_ATTEMPTS;
		const outcome: Outcome = result.ok ? 'sent' : final ? 'failed' : 'retried';
		if (outcome !== 'retried') {
			out.push({ row, result, outcome });
			continue;
		}
		const rest = group.slice(i + 1);
		if (
			eventKind(row.payload) !== 'recovery' &&
			rest.some((r) => eventKind(r.payload) === 'recovery')
		) {
			out.push({ row, result, outcome: 'superseded' });
			continue;
		}
		out.push({ row, result, outcome });
		for (const r of rest)
			out.push({ row: r, result: { ok: false, status: 0 }, outcome: 'deferred' });
		break;
	}
	return out;
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
		const result = await handler({
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
		crashPoint('after-delivery-send', result.event);
		return result;
	} catch (err) {
		return { ok: false, status: 0, error: (err as Error).message };
	}
}
