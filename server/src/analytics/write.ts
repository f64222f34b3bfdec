import type { Client, Transaction } from '@libsql/client';
import { bucketOf, emptyHistogram, merge } from './histogram.ts';
import type { InsertOutcome, StoredResult } from './index.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
// Rows per statement: 14, 8 and 5 parameters each, well under SQLite's 32,766 bound.
const CHUNK = 1000;
const ROLLUP_CHUNK = 1000;
type Rollup = { success: number; degraded: number; error: number; hist: number[]; lastAt: number };

// New results only (an id already stored, or repeated, adds nothing; a repeat counts as the
// duplicate of its first sender): the insert itself returns which rows were new, and their
// hourly rollups follow in the same transaction.
export async function writeBatches(
	client: Client,
	batches: StoredResult[][]
): Promise<InsertOutcome[]> {
	const owner = new Map<string, number>();
	const unique: StoredResult[] = [];
	batches.forEach((rows, b) => {
		for (const r of rows)
			if (!owner.has(r.resultId)) {
				owner.set(r.resultId, b);
				unique.push(r);
			}
	});
	const tx = await client.transaction('write');
	try {
		const fresh: StoredResult[] = [];
		for (let i = 0; i < unique.length; i += CHUNK) {
			const chunk = unique.slice(i, i + CHUNK);
			const inserted = await tx.execute({
				sql: `INSERT INTO check_result VALUES ${chunk.map(() => '(?,?,?,?,?,?,?,?,?,?,?,?,?,?)').join(',')} ON CONFLICT (result_id) DO NOTHING RETURNING result_id`,
				args: chunk.flatMap((r) => [
					r.resultId,
					r.workspaceId,
					r.monitorId,
					r.locationId,
					r.startedAt,
					r.latency,
					r.outcome,
					r.statusCode,
					r.error,
					JSON.stringify(r.timing),
					JSON.stringify(r.headers),
					r.assertions,
					r.grpcStatus,
					r.packetLoss
				])
			});
			const ids = new Set(inserted.rows.map((r) => String(r.result_id)));
			for (const r of chunk) if (ids.has(r.resultId)) fresh.push(r);
		}
		await addToRollups(tx, fresh);
		await addToDailyRollups(tx, fresh);
		await tx.commit();
		const accepted = batches.map(() => 0);
		for (const r of fresh) accepted[owner.get(r.resultId) ?? 0]++;
		return batches.map((rows, b) => ({
			accepted: accepted[b],
			duplicates: rows.length - accepted[b]
		}));
	} finally {
		tx.close();
	}
}

// Latency percentiles count successful and degraded checks; errors only count as errors. The
// rollup rows a batch touches are read in one query and written back in one multi-row upsert.
async function addToRollups(tx: Transaction, rows: StoredResult[]): Promise<void> {
	const groups = new Map<
		string,
		Rollup & { monitorId: number; locationId: number; bucket: number }
	>();
	for (const r of rows) {
		const bucket = Math.floor(r.startedAt / HOUR) * HOUR;
		const key = `${r.monitorId}:${r.locationId}:${bucket}`;
		let g = groups.get(key);
		if (!g) {
			g = {
				monitorId: r.monitorId,
				locationId: r.locationId,
				bucket,
				success: 0,
				degraded: 0,
				error: 0,
				hist: emptyHistogram(),
				lastAt: 0
			};
			groups.set(key, g);
		}
		g[r.outcome]++;
		if (r.outcome !== 'error') g.hist[bucketOf(r.latency)]++;
		g.lastAt = Math.max(g.lastAt, r.startedAt);
	}
	const list = [...groups.values()];
	for (let i = 0; i < list.length; i += ROLLUP_CHUNK) {
		const chunk = list.slice(i, i + ROLLUP_CHUNK);
		const existing = await tx.execute({
			sql: `WITH k(m, l, b) AS (VALUES ${chunk.map(() => '(?,?,?)').join(',')})
				SELECT r.monitor_id, r.location_id, r.bucket, r.success, r.degraded, r.error, r.hist, r.last_at
				FROM k JOIN check_rollup_hour r ON r.monitor_id = k.m AND r.location_id = k.l AND r.bucket = k.b`,
			args: chunk.flatMap((g) => [g.monitorId, g.locationId, g.bucket])
		});
		for (const old of existing.rows) {
			const g = groups.get(`${old.monitor_id}:${old.location_id}:${old.bucket}`);
			if (!g) continue;
			g.success += Number(old.success);
			g.degraded += Number(old.degraded);
			g.error += Number(old.error);
			merge(g.hist, JSON.parse(String(old.hist)) as number[]);
			g.lastAt = Math.max(g.lastAt, Number(old.last_at));
		}
		await tx.execute({
			sql: `INSERT INTO check_rollup_hour VALUES ${chunk.map(() => '(?,?,?,?,?,?,?,?)').join(',')}
				ON CONFLICT DO UPDATE SET success = excluded.success, degraded = excluded.degraded,
				error = excluded.error, hist = excluded.hist, last_at = excluded.last_at`,
			args: chunk.flatMap((g) => [
				g.monitorId,
				g.locationId,
				g.bucket,
				g.success,
				g.degraded,
				g.error,
				JSON.stringify(g.hist),
				g.lastAt
			])
		});
	}
}

// Daily counts only add up (no histogram), so the upsert adds to the stored row in place.
async function addToDailyRollups(tx: Transaction, rows: StoredResult[]): Promise<void> {
	const groups = new Map<string, [number, number, number, number, number]>();
	for (const r of rows) {
		const day = Math.floor(r.startedAt / DAY) * DAY;
		const key = `${r.monitorId}:${day}`;
		let g = groups.get(key);
		if (!g) groups.set(key, (g = [r.monitorId, day, 0, 0, 0]));
		g[r.outcome === 'success' ? 2 : r.outcome === 'degraded' ? 3 : 4]++;
	}
	const list = [...groups.values()];
	for (let i = 0; i < list.length; i += ROLLUP_CHUNK) {
		const chunk = list.slice(i, i + ROLLUP_CHUNK);
		await tx.execute({
			sql: `INSERT INTO check_rollup_day VALUES ${chunk.map(() => '(?,?,?,?,?)').join(',')}
				ON CONFLICT DO UPDATE SET success = success + excluded.success,
				degraded = degraded + excluded.degraded, error = error + excluded.error`,
			args: chunk.flat()
		});
	}
}
