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
	close(): void;
};

const SCHEMA = `
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
			const results = await client.batch(
				rows.map((r) => ({
					sql: 'INSERT OR IGNORE INTO check_result VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
					args: [
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
					]
				})),
				'write'
			);
			const accepted = results.reduce((n, r) => n + r.rowsAffected, 0);
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
		close: () => client.close()
	};
}
