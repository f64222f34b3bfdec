import { createTinybirdApi, TinybirdApiError } from '@tinybirdco/sdk';
import { tokenFile } from '../config.ts';
import { ServiceError } from '../domain/errors.ts';
import {
	COUNT_COLUMNS,
	DAILY_STATUS_COLUMNS,
	LATENCY_COLUMNS,
	METRICS_COLUMNS,
	PIPES,
	COUNTS_COLUMNS,
	RECENT_CHECK_COLUMNS,
	RESULT_COLUMNS,
	WINDOWS,
	WINDOW_NAMES,
	rowSchema,
	type Columns,
	type Window
} from './contract.ts';
import type {
	AnalyticsStore,
	DailyStatus,
	MetricsSummary,
	MonitorCounts,
	RecentCheck,
	StoredResult
} from './index.ts';
import type { LatencyPoint } from './series.ts';

export type TinybirdConfig = {
	url: string;
	apiKey: string | undefined; // queries (ANALYTICS_API_KEY)
	ingestToken: string | undefined; // Events API writes (ANALYTICS_INGEST_TOKEN)
	// ANALYTICS_TOKEN_FILE, the one value for both when they are unset (the analytics setup
	// writes it); read on each call until it is there, then kept.
	tokenFile?: string;
	fetch?: typeof fetch;
};

// The Tinybird backend (ANALYTICS_URL): writes go to the Events API as NDJSON with the ingest
// token, reads are the contract's pipes with the API key. Both through the SDK's API wrapper.
export function createTinybirdAnalytics(config: TinybirdConfig): AnalyticsStore {
	// The SDK refuses an empty token; an unset one is sent as an empty Bearer and Tinybird
	// answers 403 (spec 7.3), which is the message an operator looks for.
	let fromFile: string | undefined;
	const shared = () => (fromFile ??= tokenFile(config.tokenFile));
	const readToken = () => config.apiKey || shared() || ' ';
	const ingestToken = () => config.ingestToken || shared() || ' ';
	const api = createTinybirdApi({ baseUrl: config.url, token: ' ', fetch: config.fetch });
	const query = async <Row>(
		pipe: string,
		columns: Columns,
		params: Record<string, string | number | undefined>
	): Promise<Row[]> => {
		try {
			const res = await api.query(pipe, params, { token: readToken() });
			// safe because rowSchema has just parsed every column of the pipe's row (contract.ts)
			return rowSchema(columns).array().parse(res.data) as Row[];
		} catch (err) {
			throw unavailable(err, `pipe=${pipe}`);
		}
	};

	return {
		async insertResults(rows) {
			if (rows.length === 0) return { accepted: 0, duplicates: 0 };
			try {
				await api.ingestBatch('check_result', rows.map(toEvent), {
					token: ingestToken(),
					wait: true
				});
			} catch (err) {
				throw unavailable(err, `datasource=check_result rows=${rows.length}`);
			}
			// Tinybird does not say which ids it already had; the datasource replaces them, the
			// rollup view counts them again (a known limitation: see resources.ts check_result).
			// Looking the ids up first would cost a query per batch and still race a resend.
			return { accepted: rows.length, duplicates: 0 };
		},
		async countResults(monitorId) {
			const [row] = await query<Count>(PIPES.responseLogCount, COUNT_COLUMNS, {
				monitorId,
				since: 0
			});
			return Number(row?.total ?? 0);
		},
		async listResults(q) {
			const [rows, count] = await Promise.all([
				query<ResultRow>(PIPES.responseLogs, RESULT_COLUMNS, q),
				query<Count>(PIPES.responseLogCount, COUNT_COLUMNS, {
					monitorId: q.monitorId,
					since: q.since
				})
			]);
			return { rows: rows.map(fromResultRow), total: Number(count[0]?.total ?? 0) };
		},
		async getResult(resultId) {
			const [row] = await query<ResultRow>(PIPES.responseLog, RESULT_COLUMNS, { resultId });
			return row ? fromResultRow(row) : null;
		},
		async summary(q) {
			const pipe = PIPES.metrics[windowOf(q.since)];
			const [row] = await query<MetricsSummary & { monitorId: number }>(pipe, METRICS_COLUMNS, {
				monitorId: q.monitorId
			});
			// An aggregate always has one row; none means the pipe is not the contract's.
			if (!row) throw unavailable(new Error('the pipe returned no row'), `pipe=${pipe}`);
			const { monitorId: _m, ...summary } = row;
			return summary;
		},
		async dailyStatus(q) {
			if (q.monitorIds.length === 0) return [];
			const rows = await query<DailyStatus>(PIPES.dailyStatus, DAILY_STATUS_COLUMNS, {
				monitorIds: q.monitorIds.join(',')
			});
			const since = new Date(q.since).toISOString().slice(0, 10);
			return rows.filter((r) => r.day >= since);
		},
		async latencySeries(q) {
			return query<LatencyPoint>(PIPES.latency[q.window], LATENCY_COLUMNS, {
				monitorId: q.monitorId,
				locationId: q.locationId
			});
		},
		// The pipe's window is the last day (the only one the dashboard asks for).
		async counts(q) {
			if (q.monitorIds.length === 0) return [];
			return query<MonitorCounts>(PIPES.counts1d, COUNTS_COLUMNS, {
				monitorIds: q.monitorIds.join(',')
			});
		},
		async recentChecks(q) {
			if (q.monitorIds.length === 0) return [];
			return query<RecentCheck>(PIPES.recentChecks, RECENT_CHECK_COLUMNS, {
				monitorIds: q.monitorIds.join(','),
				perLocation: q.perLocation
			});
		},
		// Tinybird deletes asynchronously (a job); the count is not known when this returns.
		async pruneResults(q) {
			try {
				await api.deleteDatasource(
					'check_result',
					{
						deleteCondition: `workspace_id = ${Math.trunc(q.workspaceId)} AND started_at < fromUnixTimestamp64Milli(${Math.trunc(q.before)})`
					},
					{ token: readToken() }
				);
			} catch (err) {
				throw unavailable(err, 'datasource=check_result delete');
			}
			return 0;
		},
		close() {}
	};
}

// The metrics pipes are per window; callers ask for exactly now minus a window.
function windowOf(since: number): Window {
	const span = Date.now() - since;
	return WINDOW_NAMES.find((w) => span <= WINDOWS[w] + 60_000) ?? '14d';
}

// One log line per failure, and an INTERNAL error carrying Tinybird's own message (e.g. "The
// pipe '…' does not exist", spec 7.3). On ingest the ingest server then does not acknowledge the
// batch, so the probe keeps the results and sends them again.
function unavailable(err: unknown, what: string): ServiceError {
	const isHttp = err instanceof TinybirdApiError;
	const reason = isHttp ? `unexpected status code: ${err.statusCode}` : 'request failed';
	const detail = isHttp ? (err.response?.error ?? '') : String((err as Error).message);
	console.error(`[analytics] tinybird ${what} ${reason} error=${JSON.stringify(detail)}`);
	return new ServiceError(
		'INTERNAL',
		`analytics store unavailable (${reason})${detail ? `: ${detail}` : ''}`,
		// A one-line cause, so the adapters' own log line stays one line.
		{ cause: `tinybird ${what} ${reason}` }
	);
}

// `YYYY-MM-DD HH:MM:SS.sss` in UTC, the DateTime64(3) text the Events API takes.
const toDateTime64 = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

function toEvent(r: StoredResult): Record<string, unknown> {
	return {
		result_id: r.resultId,
		workspace_id: r.workspaceId,
		monitor_id: r.monitorId,
		location_id: r.locationId,
		started_at: toDateTime64(r.startedAt),
		latency: r.latency,
		outcome: r.outcome,
		status_code: r.statusCode,
		error: r.error,
		timing: JSON.stringify(r.timing),
		headers: JSON.stringify(r.headers),
		assertions: r.assertions,
		grpc_status: r.grpcStatus,
		packet_loss: r.packetLoss
	};
}

type Count = { total: number };
// A result as the response-log pipes return it: timing and headers as JSON text.
type ResultRow = Omit<StoredResult, 'timing' | 'headers'> & { timing: string; headers: string };

function fromResultRow(row: ResultRow): StoredResult {
	return {
		...row,
		timing: JSON.parse(row.timing),
		headers: JSON.parse(row.headers)
	};
}
