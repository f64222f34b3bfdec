import { createClient, type Client, type Transaction } from '@libsql/client';
import { ensureDatabaseDir } from '../db/client.ts';
import { bucketOf, emptyHistogram, histogramPercentile, merge } from './histogram.ts';
import { latencySeries, type LatencyPoint, type LatencySeriesQuery } from './series.ts';

export type { LatencyPoint, LatencySeriesQuery } from './series.ts';

// The analytics store (DESIGN.md): every check result. This is the embedded backend, its own
// libSQL file; raw results are keyed by the probe's result id so redelivery adds nothing.
export type StoredResult = {
	resultId: string;
	workspaceId: number;
	monitorId: number;
	locationId: number;
	startedAt: number; // epoch ms
	latency: number;
	outcome: 'success' | 'degraded' | 'error';
	statusCode: number | null;
	error: string;
	timing: Record<string, number>;
	headers: Record<string, string>;
	assertions: string; // JSON
	grpcStatus: string;
	packetLoss: number | null;
};

export type AnalyticsStore = {
	insertResults(rows: StoredResult[]): Promise<{ accepted: number; duplicates: number }>;
	countResults(monitorId: number): Promise<number>;
	listResults(q: {
		monitorId: number;
		since: number;
		limit: number;
		offset: number;
	}): Promise<{ rows: StoredResult[]; total: number }>;
	getResult(resultId: string): Promise<StoredResult | null>;
	summary(q: { monitorId: number; since: number }): Promise<MetricsSummary>;
	// Per-UTC-day counts (uptime bars): only days with results, oldest first.
	dailyStatus(q: { monitorIds: number[]; since: number }): Promise<DailyStatus[]>;
	// Latency percentiles per location and time bucket (charts), from the hourly rollups.
	latencySeries(q: LatencySeriesQuery): Promise<LatencyPoint[]>;
	pruneResults(q: { workspaceId: number; before: number }): Promise<number>;
	close(): void;
};

// Row shape of the `endpoint__http_metrics_<window>__v1` pipes (spec 1.4.4, 4.1 get_monitor_summary).
export type MetricsSummary = {
	success: number;
	degraded: number;
	error: number;
	p50Latency: number | null;
	p75Latency: number | null;
	p90Latency: number | null;
	p95Latency: number | null;
	p99Latency: number | null;
	lastPingAt: number | null;
};

// Row shape of the `endpoint__daily_status_90d__v1` pipe: one row per monitor and UTC day.
export type DailyStatus = {
	monitorId: number;
	day: string; // YYYY-MM-DD, UTC
	success: number;
	degraded: number;
	error: number;
};

function toStored(row: Record<string, unknown>): StoredResult {
	return {
		resultId: String(row.result_id),
		workspaceId: Number(row.workspace_id),
		monitorId: Number(row.monitor_id),
		locationId: Number(row.location_id),
		startedAt: Number(row.started_at),
		latency: Number(row.latency),
		outcome: row.outcome as StoredResult['outcome'],
		statusCode: row.status_code === null ? null : Number(row.status_code),
		error: String(row.error),
		timing: JSON.parse(String(row.timing)),
		headers: JSON.parse(String(row.headers)),
		assertions: String(row.assertions),
		grpcStatus: String(row.grpc_status),
		packetLoss: row.packet_loss === null ? null : Number(row.packet_loss)
	};
}

// WAL with NORMAL sync: a crash may lose the last transaction, never corrupt the file; the probe
// keeps results until the ingest server acknowledges them, so nothing acknowledged is lost
// unless the OS itself crashes.
const SCHEMA = `
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS check_result (
	result_id TEXT PRIMARY KEY,
	workspace_id INTEGER NOT NULL,
	monitor_id INTEGER NOT NULL,
	location_id INTEGER NOT NULL,
	started_at INTEGER NOT NULL,
	latency REAL NOT NULL,
	outcome TEXT NOT NULL,
	status_code INTEGER,
	error TEXT NOT NULL,
	timing TEXT NOT NULL,
	headers TEXT NOT NULL,
	assertions TEXT NOT NULL,
	grpc_status TEXT NOT NULL,
	packet_loss REAL
);
CREATE INDEX IF NOT EXISTS check_result_monitor_time ON check_result (monitor_id, started_at);
CREATE TABLE IF NOT EXISTS check_rollup_hour (
	monitor_id INTEGER NOT NULL,
	location_id INTEGER NOT NULL,
	bucket INTEGER NOT NULL,
	success INTEGER NOT NULL,
	degraded INTEGER NOT NULL,
	error INTEGER NOT NULL,
	hist TEXT NOT NULL,
	last_at INTEGER NOT NULL,
	PRIMARY KEY (monitor_id, location_id, bucket)
);
-- Covers dailyStatus (status pages' 90-day bars): the rollup rows carry a latency histogram, so
-- reading the counts through the table costs a row lookup per hour (bench/status-page.ts).
CREATE INDEX IF NOT EXISTS check_rollup_hour_counts
	ON check_rollup_hour (monitor_id, bucket, success, degraded, error);
`;

const HOUR = 3_600_000;
const DAY = 86_400_000;
type Rollup = { success: number; degraded: number; error: number; hist: number[]; lastAt: number };

export function createEmbeddedAnalytics(opts: { url: string }): AnalyticsStore {
	ensureDatabaseDir(opts.url);
	const client: Client = createClient({ url: opts.url });
	let ready: Promise<void> | undefined;
	const init = () => (ready ??= client.executeMultiple(SCHEMA));
	return {
		async insertResults(rows) {
			await init();
			if (rows.length === 0) return { accepted: 0, duplicates: 0 };
			// New results only (a redelivered id changes nothing), one multi-row insert per 500,
			// and their hourly rollups, all in one transaction.
			const tx = await client.transaction('write');
			try {
				let accepted = 0;
				for (let i = 0; i < rows.length; i += 500) {
					const chunk = rows.slice(i, i + 500);
					const known = await tx.execute({
						sql: `SELECT result_id FROM check_result WHERE result_id IN (${chunk.map(() => '?').join(',')})`,
						args: chunk.map((r) => r.resultId)
					});
					const seen = new Set(known.rows.map((r) => String(r.result_id)));
					const fresh = chunk.filter(
						(r, k) =>
							!seen.has(r.resultId) && chunk.findIndex((o) => o.resultId === r.resultId) === k
					);
					if (fresh.length === 0) continue;
					await tx.execute({
						sql: `INSERT INTO check_result VALUES ${fresh.map(() => '(?,?,?,?,?,?,?,?,?,?,?,?,?,?)').join(',')}`,
						args: fresh.flatMap((r) => [
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
					await addToRollups(tx, fresh);
					accepted += fresh.length;
				}
				await tx.commit();
				return { accepted, duplicates: rows.length - accepted };
			} finally {
				tx.close();
			}
		},
		async countResults(monitorId) {
			await init();
			const rs = await client.execute({
				sql: 'SELECT count(*) AS n FROM check_result WHERE monitor_id = ?',
				args: [monitorId]
			});
			return Number(rs.rows[0].n);
		},
		// Newest first over the (monitor_id, started_at) index.
		async listResults(q) {
			await init();
			const where = 'WHERE monitor_id = ? AND started_at >= ?';
			const [rows, count] = await Promise.all([
				client.execute({
					sql: `SELECT * FROM check_result ${where} ORDER BY started_at DESC LIMIT ? OFFSET ?`,
					args: [q.monitorId, q.since, q.limit, q.offset]
				}),
				client.execute({
					sql: `SELECT count(*) AS n FROM check_result ${where}`,
					args: [q.monitorId, q.since]
				})
			]);
			return {
				rows: rows.rows.map((r) => toStored(r as Record<string, unknown>)),
				total: Number(count.rows[0].n)
			};
		},
		async getResult(resultId) {
			await init();
			const rs = await client.execute({
				sql: 'SELECT * FROM check_result WHERE result_id = ?',
				args: [resultId]
			});
			return rs.rows[0] ? toStored(rs.rows[0] as Record<string, unknown>) : null;
		},
		// Read from the hourly rollups: the window is aligned to whole hours (it may include up to
		// an hour more than asked). Percentiles come from the merged latency histograms.
		async summary(q) {
			await init();
			const rs = await client.execute({
				sql: 'SELECT success, degraded, error, hist, last_at FROM check_rollup_hour WHERE monitor_id = ? AND bucket >= ?',
				args: [q.monitorId, Math.floor(q.since / HOUR) * HOUR]
			});
			const hist = emptyHistogram();
			let [success, degraded, error, last] = [0, 0, 0, 0];
			for (const r of rs.rows) {
				success += Number(r.success);
				degraded += Number(r.degraded);
				error += Number(r.error);
				last = Math.max(last, Number(r.last_at));
				merge(hist, JSON.parse(String(r.hist)) as number[]);
			}
			return {
				success,
				degraded,
				error,
				p50Latency: histogramPercentile(hist, 50),
				p75Latency: histogramPercentile(hist, 75),
				p90Latency: histogramPercentile(hist, 90),
				p95Latency: histogramPercentile(hist, 95),
				p99Latency: histogramPercentile(hist, 99),
				lastPingAt: rs.rows.length ? last : null
			};
		},
		// From the hourly rollups, summed per UTC day (at most 24 rows per day and location).
		async dailyStatus(q) {
			await init();
			if (q.monitorIds.length === 0) return [];
			const rs = await client.execute({
				sql: `SELECT monitor_id, bucket / ${DAY} AS d, sum(success) AS s, sum(degraded) AS g, sum(error) AS e
					FROM check_rollup_hour WHERE monitor_id IN (${q.monitorIds.map(() => '?').join(',')}) AND bucket >= ?
					GROUP BY monitor_id, d ORDER BY d, monitor_id`,
				args: [...q.monitorIds, Math.floor(q.since / DAY) * DAY]
			});
			return rs.rows.map((r) => ({
				monitorId: Number(r.monitor_id),
				day: new Date(Number(r.d) * DAY).toISOString().slice(0, 10),
				success: Number(r.s),
				degraded: Number(r.g),
				error: Number(r.e)
			}));
		},
		async latencySeries(q) {
			await init();
			return latencySeries(client, q);
		},
		// Raw results go after the plan's data-retention; hourly rollups stay (they are small and
		// feed the 90-day history).
		async pruneResults(q) {
			await init();
			const rs = await client.execute({
				sql: 'DELETE FROM check_result WHERE workspace_id = ? AND started_at < ?',
				args: [q.workspaceId, q.before]
			});
			return rs.rowsAffected;
		},
		close: () => client.close()
	};
}

// Latency percentiles count successful and degraded checks; errors only count as errors.
async function addToRollups(tx: Transaction, rows: StoredResult[]): Promise<void> {
	const groups = new Map<
		string,
		Rollup & { monitorId: number; locationId: number; bucket: number }
	>();
	for (const r of rows) {
		const bucket = Math.floor(r.startedAt / HOUR) * HOUR;
		const key = `${r.monitorId}:${r.locationId}:${bucket}`;
		const g = groups.get(key) ?? {
			monitorId: r.monitorId,
			locationId: r.locationId,
			bucket,
			success: 0,
			degraded: 0,
			error: 0,
			hist: emptyHistogram(),
			lastAt: 0
		};
		g[r.outcome]++;
		if (r.outcome !== 'error') g.hist[bucketOf(r.latency)]++;
		g.lastAt = Math.max(g.lastAt, r.startedAt);
		groups.set(key, g);
	}
	for (const g of groups.values()) {
		const existing = await tx.execute({
			sql: 'SELECT success, degraded, error, hist, last_at FROM check_rollup_hour WHERE monitor_id = ? AND location_id = ? AND bucket = ?',
			args: [g.monitorId, g.locationId, g.bucket]
		});
		const old = existing.rows[0];
		const hist = old ? merge(JSON.parse(String(old.hist)) as number[], g.hist) : g.hist;
		await tx.execute({
			sql: 'INSERT OR REPLACE INTO check_rollup_hour VALUES (?,?,?,?,?,?,?,?)',
			args: [
				g.monitorId,
				g.locationId,
				g.bucket,
				g.success + Number(old?.success ?? 0),
				g.degraded + Number(old?.degraded ?? 0),
				g.error + Number(old?.error ?? 0),
				JSON.stringify(hist),
				Math.max(g.lastAt, Number(old?.last_at ?? 0))
			]
		});
	}
}
