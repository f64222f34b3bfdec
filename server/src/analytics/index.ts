import { createClient, type Client } from '@libsql/client';
import { ensureDatabaseDir } from '../db/client.ts';
import { BUSY_TIMEOUT_MS } from '../db/busy.ts';
import { emptyHistogram, histogramPercentile, merge } from './histogram.ts';
import { RECENT_CHECKS_DAYS } from './contract.ts';
import { addDailyRollups, clusterRollups, SCHEMA } from './schema.ts';
import { latencySeries, type LatencyPoint, type LatencySeriesQuery } from './series.ts';
import { writeBatches } from './write.ts';

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

export type InsertOutcome = { accepted: number; duplicates: number };

export type AnalyticsStore = {
	insertResults(rows: StoredResult[]): Promise<InsertOutcome>;
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
	// Counts per monitor since a time, from the hourly rollups (only monitors with results).
	counts(q: { monitorIds: number[]; since: number }): Promise<MonitorCounts[]>;
	// The latest checks per monitor and location, newest first (heartbeat strips).
	recentChecks(q: { monitorIds: number[]; perLocation: number }): Promise<RecentCheck[]>;
	pruneResults(q: { workspaceId: number; before: number }): Promise<number>;
	close(): void;
};

// Row shape of the `endpoint__http_counts_1d__v1` pipe.
export type MonitorCounts = { monitorId: number; success: number; degraded: number; error: number };

// Row shape of the `endpoint__recent_checks__v1` pipe.
export type RecentCheck = Pick<
	StoredResult,
	'monitorId' | 'locationId' | 'startedAt' | 'latency' | 'outcome' | 'statusCode' | 'error'
>;

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
const HOUR = 3_600_000;
const DAY = 86_400_000;
// Locations one heartbeat read makes room for; a monitor run from more shows fewer checks each.
const RECENT_CHECKS_LOCATIONS = 4;
// Most rows one group commit writes; a single larger batch still goes in one transaction.
const GROUP_ROWS = 10_000;

export function createEmbeddedAnalytics(opts: { url: string }): AnalyticsStore {
	ensureDatabaseDir(opts.url);
	const client: Client = createClient({ url: opts.url, timeout: BUSY_TIMEOUT_MS });
	let ready: Promise<void> | undefined;
	// A failed start (the file locked by another process) is tried again by the next call.
	const init = () =>
		(ready ??= client
			.executeMultiple(SCHEMA)
			.then(() => clusterRollups(client))
			.then(() => addDailyRollups(client))
			.catch((err: unknown) => {
				ready = undefined;
				throw err;
			}));

	// Group commit: batches that arrive while a write is running (several probes reporting at
	// once) share the next transaction, so index and rollup pages are written once per group.
	type Pending = {
		rows: StoredResult[];
		resolve: (r: InsertOutcome) => void;
		reject: (err: unknown) => void;
	};
	const queue: Pending[] = [];
	let writing = false;
	async function drain(): Promise<void> {
		if (writing) return;
		writing = true;
		try {
			while (queue.length > 0) {
				const group: Pending[] = [];
				let size = 0;
				for (let next = queue[0]; next; next = queue[0]) {
					if (group.length > 0 && size + next.rows.length > GROUP_ROWS) break;
					group.push(next);
					size += next.rows.length;
					queue.shift();
				}
				await writeGroup(group);
			}
		} finally {
			writing = false;
		}
	}
	// One caller's bad batch must not fail the others': on error each is retried on its own.
	async function writeGroup(group: Pending[]): Promise<void> {
		try {
			const outcomes = await writeBatches(
				client,
				group.map((p) => p.rows)
			);
			group.forEach((p, i) => p.resolve(outcomes[i]));
		} catch (err) {
			if (group.length === 1) return group[0].reject(err);
			for (const p of group) await writeGroup([p]);
		}
	}

	return {
		async insertResults(rows) {
			await init();
			if (rows.length === 0) return { accepted: 0, duplicates: 0 };
			return new Promise((resolve, reject) => {
				queue.push({ rows, resolve, reject });
				void drain();
			});
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
		// From the daily rollups: one row per monitor and UTC day. The answer is one row of five
		// aligned lists (one scan feeds every group_concat in the same order, and no column is
		// NULL): the driver's per-row cost and SQL string `||` both dominated 1,800 rows.
		async dailyStatus(q) {
			await init();
			if (q.monitorIds.length === 0) return [];
			const rs = await client.execute({
				sql: `SELECT group_concat(monitor_id) AS monitors, group_concat(day) AS days,
					group_concat(success) AS success, group_concat(degraded) AS degraded,
					group_concat(error) AS error
					FROM check_rollup_day
					WHERE monitor_id IN (${q.monitorIds.map(() => '?').join(',')}) AND day >= ?`,
				args: [...q.monitorIds, Math.floor(q.since / DAY) * DAY]
			});
			const r = rs.rows[0];
			if (!r || r.days === null) return [];
			// Integer lists: JSON.parse reads them faster than split + Number.
			const column = (name: string): number[] => JSON.parse(`[${String(r[name])}]`);
			const [monitors, days] = [column('monitors'), column('days')];
			const [success, degraded, error] = [column('success'), column('degraded'), column('error')];
			// Oldest day first, then by monitor: days are whole UTC days, so each row goes to its
			// day's bucket by offset (sorting 1,800 rows cost more than the query).
			const first = Math.min(...days);
			const byDay: number[][] = [];
			for (let i = 0; i < days.length; i++)
				(byDay[Math.floor((days[i] - first) / DAY)] ??= []).push(i);
			const out: DailyStatus[] = [];
			for (const rows of byDay) {
				if (!rows) continue;
				const day = new Date(days[rows[0]]).toISOString().slice(0, 10);
				for (const i of rows.sort((a, b) => monitors[a] - monitors[b]))
					out.push({
						monitorId: monitors[i],
						day,
						success: success[i],
						degraded: degraded[i],
						error: error[i]
					});
			}
			return out;
		},
		async latencySeries(q) {
			await init();
			return latencySeries(client, q);
		},
		async counts(q) {
			await init();
			if (q.monitorIds.length === 0) return [];
			const rs = await client.execute({
				sql: `SELECT monitor_id, sum(success) AS success, sum(degraded) AS degraded,
					sum(error) AS error FROM check_rollup_hour
					WHERE monitor_id IN (${q.monitorIds.map(() => '?').join(',')}) AND bucket >= ?
					GROUP BY monitor_id`,
				args: [...q.monitorIds, Math.floor(q.since / HOUR) * HOUR]
			});
			return rs.rows.map((r) => ({
				monitorId: Number(r.monitor_id),
				success: Number(r.success),
				degraded: Number(r.degraded),
				error: Number(r.error)
			}));
		},
		// One indexed newest-first read per monitor (a UNION ALL of them: one statement), cut
		// per location here: a window function over the period would scan every row of it.
		async recentChecks(q) {
			await init();
			if (q.monitorIds.length === 0) return [];
			const since = Date.now() - RECENT_CHECKS_DAYS * DAY;
			const one = `SELECT * FROM (SELECT monitor_id, location_id, started_at, latency, outcome,
				status_code, error FROM check_result WHERE monitor_id = ? AND started_at >= ?
				ORDER BY started_at DESC LIMIT ?)`;
			const rs = await client.execute({
				sql: q.monitorIds.map(() => one).join(' UNION ALL '),
				args: q.monitorIds.flatMap((id) => [id, since, q.perLocation * RECENT_CHECKS_LOCATIONS])
			});
			const taken = new Map<string, number>();
			const out: RecentCheck[] = [];
			for (const r of rs.rows) {
				const key = `${r.monitor_id}:${r.location_id}`;
				const n = taken.get(key) ?? 0;
				if (n >= q.perLocation) continue;
				taken.set(key, n + 1);
				out.push({
					monitorId: Number(r.monitor_id),
					locationId: Number(r.location_id),
					startedAt: Number(r.started_at),
					latency: Number(r.latency),
					outcome: r.outcome as RecentCheck['outcome'],
					statusCode: r.status_code === null ? null : Number(r.status_code),
					error: String(r.error)
				});
			}
			return out;
		},
		// Raw results go after the plan's data-retention; hourly and daily rollups stay (they are
		// small and feed charts and the 90-day history).
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
