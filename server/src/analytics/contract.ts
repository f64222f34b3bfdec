import { getModifiers, getTinybirdType, t, type AnyTypeValidator } from '@tinybirdco/sdk';
import { z } from 'zod';

// The pipes are the analytics query contract (DESIGN.md): the same names, params and row shapes
// on the embedded backend (pipes.ts) and on Tinybird (tinybird/resources.ts). Columns are
// written once, as Tinybird types; the embedded `meta` and the zod row parsers derive from them.
export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const WINDOWS = { '1d': DAY, '7d': 7 * DAY, '14d': 14 * DAY } as const;
export type Window = keyof typeof WINDOWS;
export const WINDOW_NAMES = Object.keys(WINDOWS) as Window[];
// Chart buckets: whole hours so every point is a sum of hourly rollups (24, 42, 42 points).
export const SERIES_STEP: Record<Window, number> = { '1d': HOUR, '7d': 4 * HOUR, '14d': 8 * HOUR };
export const DAILY_STATUS_DAYS = 90;

export const PIPES = {
	metrics: {
		'1d': 'endpoint__http_metrics_1d__v1',
		'7d': 'endpoint__http_metrics_7d__v1',
		'14d': 'endpoint__http_metrics_14d__v1'
	},
	latency: {
		'1d': 'endpoint__http_latency_1d__v1',
		'7d': 'endpoint__http_latency_7d__v1',
		'14d': 'endpoint__http_latency_14d__v1'
	},
	dailyStatus: 'endpoint__daily_status_90d__v1',
	responseLogs: 'endpoint__response_logs__v1',
	responseLogCount: 'endpoint__response_log_count__v1',
	responseLog: 'endpoint__response_log__v1',
	recentChecks: 'endpoint__recent_checks__v1',
	counts1d: 'endpoint__http_counts_1d__v1'
} as const;
// The heartbeat strips: at most this many latest checks per monitor and location, from the
// last RECENT_CHECKS_DAYS days (raw results; a monitor quiet for longer shows none).
export const RECENT_CHECKS_MAX = 50;
export const RECENT_CHECKS_DAYS = 2;

const ms = () => t.float64().nullable();
export const METRICS_COLUMNS = {
	monitorId: t.int64(),
	success: t.uint64(),
	degraded: t.uint64(),
	error: t.uint64(),
	p50Latency: ms(),
	p75Latency: ms(),
	p90Latency: ms(),
	p95Latency: ms(),
	p99Latency: ms(),
	lastPingAt: t.int64().nullable() // epoch ms
};
export const LATENCY_COLUMNS = {
	monitorId: t.int64(),
	locationId: t.int64(),
	bucket: t.int64(), // epoch ms, start of the bucket
	count: t.uint64(),
	p50Latency: ms(),
	p75Latency: ms(),
	p90Latency: ms(),
	p95Latency: ms(),
	p99Latency: ms()
};
export const DAILY_STATUS_COLUMNS = {
	monitorId: t.int64(),
	day: t.string(), // YYYY-MM-DD, UTC
	success: t.uint64(),
	degraded: t.uint64(),
	error: t.uint64()
};
// A stored check result; timing, headers and assertions are JSON text on both backends.
export const RESULT_COLUMNS = {
	resultId: t.string(),
	workspaceId: t.int64(),
	monitorId: t.int64(),
	locationId: t.int64(),
	startedAt: t.int64(), // epoch ms
	latency: t.float64(),
	outcome: t.string(),
	statusCode: t.int32().nullable(),
	error: t.string(),
	timing: t.string(),
	headers: t.string(),
	assertions: t.string(),
	grpcStatus: t.string(),
	packetLoss: t.float64().nullable()
};
export const COUNT_COLUMNS = { total: t.uint64() };
// Success/degraded/error over the last day for many monitors at once (the monitor list).
export const COUNTS_COLUMNS = {
	monitorId: t.int64(),
	success: t.uint64(),
	degraded: t.uint64(),
	error: t.uint64()
};
export const RECENT_CHECK_COLUMNS = {
	monitorId: t.int64(),
	locationId: t.int64(),
	startedAt: t.int64(), // epoch ms
	latency: t.float64(),
	outcome: t.string(),
	statusCode: t.int32().nullable(),
	error: t.string()
};

export type Columns = Record<string, AnyTypeValidator>;

// Tinybird's `meta` for a row: [{ name, type }] in column order.
export function metaOf(columns: Columns): Array<{ name: string; type: string }> {
	return Object.entries(columns).map(([name, v]) => ({ name, type: getTinybirdType(v) }));
}

// A zod parser for one row. 64-bit integers may arrive quoted (ClickHouse JSON), so numbers coerce.
export function rowSchema(columns: Columns) {
	const shape: Record<string, z.ZodType> = {};
	for (const [name, v] of Object.entries(columns)) {
		const base = /Int|Float/.test(getTinybirdType(v)) ? z.coerce.number() : z.string();
		shape[name] = getModifiers(v).nullable ? base.nullable() : base;
	}
	return z.object(shape);
}

// Query-string params, parsed the same way by the embedded endpoint and produced by the
// Tinybird client (both send them as strings).
const id = z.coerce.number().int().positive();
function monitorIdList(max: number) {
	return z
		.string()
		.regex(/^\d+(,\d+)*$/, 'monitorIds must be a comma-separated list of ids')
		.transform((s) => s.split(',').map(Number))
		.pipe(z.array(z.number().int().positive()).max(max));
}
export const PipeParams = {
	metrics: z.object({ monitorId: id }),
	latency: z.object({ monitorId: id, locationId: id.optional() }),
	dailyStatus: z.object({ monitorIds: monitorIdList(1000) }),
	counts1d: z.object({ monitorIds: monitorIdList(100) }),
	recentChecks: z.object({
		monitorIds: monitorIdList(100),
		perLocation: z.coerce.number().int().min(1).max(RECENT_CHECKS_MAX).default(RECENT_CHECKS_MAX)
	}),
	responseLogs: z.object({
		monitorId: id,
		since: z.coerce.number().int().min(0),
		limit: z.coerce.number().int().min(1).max(100).default(50),
		offset: z.coerce.number().int().min(0).default(0)
	}),
	responseLogCount: z.object({ monitorId: id, since: z.coerce.number().int().min(0) }),
	responseLog: z.object({ resultId: z.string().min(1).max(64) })
};
