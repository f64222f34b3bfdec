import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/client.ts';

export const DAY_MS = 86_400_000;

// Outbox rows written straight to the tables, `ageDays` old, each with `attempts` log rows: the
// retention tests need ages and statuses no real send produces in a test run.
export async function seedDeliveries(
	db: Db,
	args: { workspaceId: number; status: string; ageDays: number; count?: number; attempts?: number }
): Promise<number[]> {
	const createdAt = new Date(Date.now() - args.ageDays * DAY_MS);
	const tag = `test:${randomUUID()}`;
	const keys = Array.from({ length: args.count ?? 1 }, (_, i) => `${tag}:${i}`);
	await db.delivery.createMany({
		data: keys.map((dedupeKey) => ({
			workspaceId: args.workspaceId,
			kind: 'alert',
			dedupeKey,
			status: args.status,
			createdAt,
			nextAttemptAt: createdAt
		}))
	});
	const rows = await db.delivery.findMany({
		where: { dedupeKey: { startsWith: `${tag}:` } },
		select: { id: true },
		orderBy: { id: 'asc' }
	});
	const tries = args.attempts ?? 1;
	await db.deliveryAttempt.createMany({
		data: rows.flatMap((r) =>
			Array.from({ length: tries }, (_, i) => ({
				deliveryId: r.id,
				workspaceId: args.workspaceId,
				attempt: i + 1,
				ok: args.status === 'sent' && i === tries - 1,
				status: args.status === 'sent' && i === tries - 1 ? 200 : 503,
				at: createdAt
			}))
		)
	});
	return rows.map((r) => r.id);
}

// What is left of a workspace's outbox: [deliveries, attempts].
export async function outboxSize(db: Db, workspaceId: number): Promise<[number, number]> {
	return [
		await db.delivery.count({ where: { workspaceId } }),
		await db.deliveryAttempt.count({ where: { workspaceId } })
	];
}
