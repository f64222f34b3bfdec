import type { Client } from '@libsql/client';

// Rollup rows are clustered by their key (WITHOUT ROWID): a monitor's hours are neighbours on
// disk, so summaries and uptime bars read a few pages, and ingest writes one b-tree, not two.
const rollupTable = (name: string) => `CREATE TABLE IF NOT EXISTS ${name} (
	monitor_id INTEGER NOT NULL,
	location_id INTEGER NOT NULL,
	bucket INTEGER NOT NULL,
	success INTEGER NOT NULL,
	degraded INTEGER NOT NULL,
	error INTEGER NOT NULL,
	hist TEXT NOT NULL,
	last_at INTEGER NOT NULL,
	PRIMARY KEY (monitor_id, location_id, bucket)
) WITHOUT ROWID;`;

// WAL with NORMAL sync: a crash may lose the last transaction, never corrupt the file; the probe
// keeps results until the ingest server acknowledges them, so nothing acknowledged is lost
// unless the OS itself crashes. A 32 MiB page cache keeps the index pages ingest touches in
// memory; checkpoints every 10,000 pages (not 1,000) copy a page rewritten by many batches once.
// Another process holding the file briefly (a writer, a checkpoint) is waited for, up to 5 s,
// instead of failing the statement at once.
export const SCHEMA = `
PRAGMA busy_timeout = 5000;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA cache_size = -32768;
PRAGMA wal_autocheckpoint = 10000;
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
${rollupTable('check_rollup_hour')}
-- A monitor's hours across locations, in time order: summaries search a window through it
-- (90-day bars read check_rollup_day, made in addDailyRollups below).
CREATE INDEX IF NOT EXISTS check_rollup_hour_counts
	ON check_rollup_hour (monitor_id, bucket, success, degraded, error);
`;

// Stores made before rollups were clustered get their table rebuilt once, same columns and rows.
export async function clusterRollups(client: Client): Promise<void> {
	const rs = await client.execute(
		"SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'check_rollup_hour'"
	);
	if (/WITHOUT ROWID/i.test(String(rs.rows[0]?.sql ?? ''))) return;
	await client.batch(
		[
			rollupTable('check_rollup_hour_clustered'),
			'INSERT INTO check_rollup_hour_clustered SELECT monitor_id, location_id, bucket, success, degraded, error, hist, last_at FROM check_rollup_hour',
			'DROP TABLE check_rollup_hour',
			'ALTER TABLE check_rollup_hour_clustered RENAME TO check_rollup_hour'
		],
		'write'
	);
	console.log('[analytics] rebuilt table=check_rollup_hour layout=without-rowid');
}

// Per monitor and UTC day, all locations together: what the 90-day uptime bars read (20
// monitors x 90 days is 1,800 rows instead of 43,200 hourly ones). Written at ingest beside the
// hourly rows, from the same new results only.
const DAY_TABLE = `CREATE TABLE check_rollup_day (
	monitor_id INTEGER NOT NULL,
	day INTEGER NOT NULL,
	success INTEGER NOT NULL,
	degraded INTEGER NOT NULL,
	error INTEGER NOT NULL,
	PRIMARY KEY (monitor_id, day)
) WITHOUT ROWID`;

// Stores made before daily rollups get the table filled once from their hourly rollups.
export async function addDailyRollups(client: Client): Promise<void> {
	const rs = await client.execute(
		"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'check_rollup_day'"
	);
	if (rs.rows.length > 0) return;
	await client.batch(
		[
			DAY_TABLE,
			`INSERT INTO check_rollup_day SELECT monitor_id, bucket / 86400000 * 86400000, sum(success),
				sum(degraded), sum(error) FROM check_rollup_hour GROUP BY 1, 2`
		],
		'write'
	);
}
