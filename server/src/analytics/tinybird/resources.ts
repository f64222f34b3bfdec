import {
	defineDatasource,
	defineEndpoint,
	defineMaterializedView,
	defineProject,
	engine,
	node,
	p,
	t
} from '@tinybirdco/sdk';
import {
	COUNT_COLUMNS,
	DAILY_STATUS_COLUMNS,
	DAILY_STATUS_DAYS,
	LATENCY_COLUMNS,
	METRICS_COLUMNS,
	PIPES,
	COUNTS_COLUMNS,
	RECENT_CHECK_COLUMNS,
	RECENT_CHECKS_DAYS,
	RECENT_CHECKS_MAX,
	RESULT_COLUMNS,
	SERIES_STEP,
	WINDOWS,
	type Window
} from '../contract.ts';

// The Tinybird side of the pipes contract (contract.ts), deployable with the SDK's CLI
// (`tinybird deploy`). Rollups are a materialized view written at ingest, as on the embedded
// backend, so the summary, chart and uptime pipes never scan raw results.

export const checkResult = defineDatasource('check_result', {
	description: 'Every check result, one row per probe result id.',
	schema: {
		result_id: t.string(),
		workspace_id: t.int64(),
		monitor_id: t.int64(),
		location_id: t.int64(),
		started_at: t.dateTime64(3),
		latency: t.float64(),
		outcome: t.string().lowCardinality(),
		status_code: t.int32().nullable(),
		error: t.string(),
		timing: t.string(),
		headers: t.string(),
		assertions: t.string(),
		grpc_status: t.string(),
		packet_loss: t.float64().nullable()
	},
	// A redelivered result replaces itself here, but the rollup view below counts every insert,
	// so a batch the probe resends (its acknowledgement was lost) is counted twice in the
	// hourly counts and latency digests until the month's partition is rebuilt. Known
	// limitation (README, "Analytics on Tinybird"); the embedded store has no such gap.
	engine: engine.replacingMergeTree({
		partitionKey: 'toYYYYMM(started_at)',
		sortingKey: ['workspace_id', 'monitor_id', 'started_at', 'result_id']
	})
});

const QUANTILES = 'quantilesTDigest(0.5, 0.75, 0.9, 0.95, 0.99)';

export const checkRollupHour = defineDatasource('check_rollup_hour', {
	description: 'Hourly counts and a latency digest per monitor and location.',
	schema: {
		monitor_id: t.int64(),
		location_id: t.int64(),
		bucket: t.dateTime(),
		success: t.simpleAggregateFunction('sum', t.uint64()),
		degraded: t.simpleAggregateFunction('sum', t.uint64()),
		error: t.simpleAggregateFunction('sum', t.uint64()),
		latency: t.aggregateFunction(QUANTILES, t.float64()),
		last_at: t.simpleAggregateFunction('max', t.dateTime64(3))
	},
	engine: engine.aggregatingMergeTree({
		partitionKey: 'toYYYYMM(bucket)',
		sortingKey: ['monitor_id', 'location_id', 'bucket']
	})
});

export const checkRollupHourMv = defineMaterializedView('check_rollup_hour_mv', {
	datasource: checkRollupHour,
	nodes: [
		node({
			name: 'rollup',
			sql: `SELECT monitor_id, location_id, toStartOfHour(started_at) AS bucket,
				toUInt64(countIf(outcome = 'success')) AS success,
				toUInt64(countIf(outcome = 'degraded')) AS degraded,
				toUInt64(countIf(outcome = 'error')) AS error,
				${QUANTILES.replace('(', 'StateIf(')}(latency, outcome != 'error') AS latency,
				max(started_at) AS last_at
			FROM check_result GROUP BY monitor_id, location_id, bucket`
		})
	]
});

// The digest is merged in an inner query (column q) and spread into the contract's columns here,
// so the endpoint's output is exactly the contract's row.
const quantiles = `arrayMap(x -> if(isNaN(x), NULL, round(x, 2)), ${QUANTILES.replace('(', 'Merge(')}(latency)) AS q`;
const percentiles = (columns: string) =>
	`SELECT ${columns}, q[1] AS p50Latency, q[2] AS p75Latency, q[3] AS p90Latency,
	q[4] AS p95Latency, q[5] AS p99Latency`;
const sinceWindow = (w: Window) => `now() - INTERVAL ${WINDOWS[w] / 3_600_000} HOUR`;

const metricsPipe = (w: Window) =>
	defineEndpoint(PIPES.metrics[w], {
		description: `Counts, p50-p99 latency and last check of one monitor over ${w}.`,
		params: { monitorId: p.int64() },
		nodes: [
			node({
				name: 'summary',
				sql: `${percentiles('monitorId, success, degraded, error')}, lastPingAt FROM (
					SELECT {{Int64(monitorId)}} AS monitorId, sum(success) AS success,
						sum(degraded) AS degraded, sum(error) AS error, ${quantiles},
						if(count() = 0, NULL, toUnixTimestamp64Milli(max(last_at))) AS lastPingAt
					FROM check_rollup_hour
					WHERE monitor_id = {{Int64(monitorId)}} AND bucket >= toStartOfHour(${sinceWindow(w)}))`
			})
		],
		output: METRICS_COLUMNS
	});

const latencyPipe = (w: Window) =>
	defineEndpoint(PIPES.latency[w], {
		description: `Latency p50-p99 per location in ${SERIES_STEP[w] / 3_600_000}h buckets over ${w}.`,
		params: { monitorId: p.int64(), locationId: p.int64().optional() },
		nodes: [
			node({
				name: 'series',
				sql: `${percentiles('monitorId, locationId, bucketMs AS bucket, count')} FROM (
					SELECT monitor_id AS monitorId, location_id AS locationId,
						toInt64(toUnixTimestamp(toStartOfInterval(bucket, INTERVAL ${SERIES_STEP[w] / 3_600_000} HOUR))) * 1000 AS bucketMs,
						toUInt64(sum(success) + sum(degraded)) AS count, ${quantiles}
					FROM check_rollup_hour
					WHERE monitor_id = {{Int64(monitorId)}} AND bucket >= ${sinceWindow(w)}
					{% if defined(locationId) %} AND location_id = {{Int64(locationId)}} {% end %}
					GROUP BY monitorId, locationId, bucketMs) ORDER BY bucket, locationId`
			})
		],
		output: LATENCY_COLUMNS
	});

// The SDK's CLI finds resources by their top-level exports, one constant per pipe.
export const httpMetrics1d = metricsPipe('1d');
export const httpMetrics7d = metricsPipe('7d');
export const httpMetrics14d = metricsPipe('14d');
export const httpLatency1d = latencyPipe('1d');
export const httpLatency7d = latencyPipe('7d');
export const httpLatency14d = latencyPipe('14d');

export const dailyStatus = defineEndpoint(PIPES.dailyStatus, {
	description: `Counts per monitor and UTC day over ${DAILY_STATUS_DAYS} days (uptime bars).`,
	params: { monitorIds: p.array(p.int64()) },
	nodes: [
		node({
			name: 'days',
			sql: `SELECT monitor_id AS monitorId, toString(toDate(bucket, 'UTC')) AS day,
				sum(success) AS success, sum(degraded) AS degraded, sum(error) AS error
			FROM check_rollup_hour
			WHERE monitor_id IN {{Array(monitorIds, 'Int64')}}
				AND bucket >= toStartOfDay(now() - INTERVAL ${DAILY_STATUS_DAYS} DAY, 'UTC')
			GROUP BY monitorId, day ORDER BY day, monitorId`
		})
	],
	output: DAILY_STATUS_COLUMNS
});

const resultColumns = `result_id AS resultId, workspace_id AS workspaceId, monitor_id AS monitorId,
	location_id AS locationId, toUnixTimestamp64Milli(started_at) AS startedAt, latency, outcome,
	status_code AS statusCode, error, timing, headers, assertions, grpc_status AS grpcStatus,
	packet_loss AS packetLoss`;
const recent = `monitor_id = {{Int64(monitorId)}}
	AND started_at >= fromUnixTimestamp64Milli({{Int64(since)}})`;

export const responseLogs = defineEndpoint(PIPES.responseLogs, {
	description: 'Check results of one monitor, newest first.',
	params: {
		monitorId: p.int64(),
		since: p.int64(),
		limit: p.int32().optional(50),
		offset: p.int32().optional(0)
	},
	nodes: [
		node({
			name: 'results',
			sql: `SELECT ${resultColumns} FROM check_result FINAL WHERE ${recent}
				ORDER BY started_at DESC LIMIT {{Int32(limit, 50)}} OFFSET {{Int32(offset, 0)}}`
		})
	],
	output: RESULT_COLUMNS
});

export const responseLogCount = defineEndpoint(PIPES.responseLogCount, {
	description: 'How many check results one monitor has since a time.',
	params: { monitorId: p.int64(), since: p.int64() },
	nodes: [
		node({
			name: 'count',
			sql: `SELECT toUInt64(count()) AS total FROM check_result FINAL WHERE ${recent}`
		})
	],
	output: COUNT_COLUMNS
});

export const responseLog = defineEndpoint(PIPES.responseLog, {
	description: 'One check result by its id.',
	params: { resultId: p.string() },
	nodes: [
		node({
			name: 'result',
			sql: `SELECT ${resultColumns} FROM check_result FINAL
				WHERE result_id = {{String(resultId)}} LIMIT 1`
		})
	],
	output: RESULT_COLUMNS
});

export const counts1d = defineEndpoint(PIPES.counts1d, {
	description: 'Counts per monitor over the last day (the dashboard monitor list).',
	params: { monitorIds: p.array(p.int64()) },
	nodes: [
		node({
			name: 'counts',
			sql: `SELECT monitor_id AS monitorId, sum(success) AS success, sum(degraded) AS degraded,
				sum(error) AS error
			FROM check_rollup_hour
			WHERE monitor_id IN {{Array(monitorIds, 'Int64')}}
				AND bucket >= toStartOfHour(now() - INTERVAL 1 DAY)
			GROUP BY monitorId`
		})
	],
	output: COUNTS_COLUMNS
});

export const recentChecks = defineEndpoint(PIPES.recentChecks, {
	description: 'The latest checks per monitor and location (heartbeat strips).',
	params: { monitorIds: p.array(p.int64()), perLocation: p.int32().optional(RECENT_CHECKS_MAX) },
	nodes: [
		node({
			name: 'checks',
			sql: `SELECT monitor_id AS monitorId, location_id AS locationId,
				toUnixTimestamp64Milli(started_at) AS startedAt, latency, outcome,
				status_code AS statusCode, error
			FROM check_result FINAL
			WHERE monitor_id IN {{Array(monitorIds, 'Int64')}}
				AND started_at >= now() - INTERVAL ${RECENT_CHECKS_DAYS} DAY
			ORDER BY started_at DESC
			LIMIT {{Int32(perLocation, ${RECENT_CHECKS_MAX})}} BY monitor_id, location_id`
		})
	],
	output: RECENT_CHECK_COLUMNS
});

export const tinybirdProject = defineProject({
	datasources: { checkResult, checkRollupHour },
	pipes: {
		checkRollupHourMv,
		httpMetrics1d,
		httpMetrics7d,
		httpMetrics14d,
		httpLatency1d,
		httpLatency7d,
		httpLatency14d,
		dailyStatus,
		responseLogs,
		responseLogCount,
		responseLog,
		recentChecks,
		counts1d
	}
});
