import { createClient, type Client } from '@libsql/client';
import { ensureDatabaseDir } from '../db/client.ts';

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

// Nearest-rank percentile over sorted values.
export function percentile(sorted: number[], p: number): number | null {
	if (sorted.length === 0) return null;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

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
`;

export function createEmbeddedAnalytics(opts: { url: string }): AnalyticsStore {
	ensureDatabaseDir(opts.url);
	const client: Client = createClient({ url: opts.url });
	let ready: Promise<void> | undefined;
	const init = () => (ready ??= client.executeMultiple(SCHEMA));
	return {
		async insertResults(rows) {
			await init();
			if (rows.length === 0) return { accepted: 0, duplicates: 0 };
			// One multi-row statement per 500 results: far faster than a statement per row.
			let accepted = 0;
			for (let i = 0; i < rows.length; i += 500) {
				const chunk = rows.slice(i, i + 500);
				const rs = await client.execute({
					sql: `INSERT OR IGNORE INTO check_result VALUES ${chunk.map(() => '(?,?,?,?,?,?,?,?,?,?,?,?,?,?)').join(',')}`,
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
				accepted += rs.rowsAffected;
			}
			return { accepted, duplicates: rows.length - accepted };
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
		// Computed from raw results of the window for now; rollups written at ingest replace this.
		async summary(q) {
			await init();
			const [counts, latencies] = await Promise.all([
				client.execute({
					sql: `SELECT sum(outcome = 'success') AS success, sum(outcome = 'degraded') AS degraded, sum(outcome = 'error') AS error, max(started_at) AS last FROM check_result WHERE monitor_id = ? AND started_at >= ?`,
					args: [q.monitorId, q.since]
				}),
				client.execute({
					sql: `SELECT latency FROM check_result WHERE monitor_id = ? AND started_at >= ? AND outcome != 'error' ORDER BY latency`,
					args: [q.monitorId, q.since]
				})
			]);
			const c = counts.rows[0];
			const sorted = latencies.rows.map((r) => Number(r.latency));
			return {
				success: Number(c.success ?? 0),
				degraded: Number(c.degraded ?? 0),
				error: Number(c.error ?? 0),
				p50Latency: percentile(sorted, 50),
				p75Latency: percentile(sorted, 75),
				p90Latency: percentile(sorted, 90),
				p95Latency: percentile(sorted, 95),
				p99Latency: percentile(sorted, 99),
				lastPingAt: c.last === null ? null : Number(c.last)
			};
		},
		close: () => client.close()
	};
}
