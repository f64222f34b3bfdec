import { timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { z } from 'zod';
import {
	COUNT_COLUMNS,
	DAILY_STATUS_COLUMNS,
	DAILY_STATUS_DAYS,
	DAY,
	LATENCY_COLUMNS,
	METRICS_COLUMNS,
	PIPES,
	PipeParams,
	COUNTS_COLUMNS,
	RECENT_CHECK_COLUMNS,
	RESULT_COLUMNS,
	WINDOWS,
	WINDOW_NAMES,
	metaOf,
	type Columns
} from './contract.ts';
import type { AnalyticsStore, StoredResult } from './index.ts';

type Rows = Record<string, unknown>[];
type Pipe = {
	columns: Columns;
	// Parses the query string with the pipe's params, then reads the rows.
	run(store: AnalyticsStore, query: unknown): Promise<{ rows: Rows } | { invalid: string }>;
};
const pipe = <P extends z.ZodType>(
	params: P,
	columns: Columns,
	rows: (store: AnalyticsStore, params: z.output<P>) => Promise<Rows>
): Pipe => ({
	columns,
	async run(store, query) {
		const parsed = params.safeParse(query);
		if (parsed.success) return { rows: await rows(store, parsed.data) };
		const issue = parsed.error.issues[0];
		return { invalid: `${issue.path.join('.') || 'params'}: ${issue.message}` };
	}
});

export function toResultRow(r: StoredResult): Record<string, unknown> {
	return {
		...r,
		timing: JSON.stringify(r.timing),
		headers: JSON.stringify(r.headers)
	};
}

// Every pipe of the contract, answered by the embedded store.
export const EMBEDDED_PIPES: Record<string, Pipe> = Object.fromEntries([
	...WINDOW_NAMES.map((w) => [
		PIPES.metrics[w],
		pipe(PipeParams.metrics, METRICS_COLUMNS, async (store, { monitorId }) => [
			{ monitorId, ...(await store.summary({ monitorId, since: Date.now() - WINDOWS[w] })) }
		])
	]),
	...WINDOW_NAMES.map((w) => [
		PIPES.latency[w],
		pipe(PipeParams.latency, LATENCY_COLUMNS, (store, p) =>
			store.latencySeries({ ...p, window: w })
		)
	]),
	[
		PIPES.dailyStatus,
		pipe(PipeParams.dailyStatus, DAILY_STATUS_COLUMNS, (store, { monitorIds }) =>
			store.dailyStatus({ monitorIds, since: Date.now() - DAILY_STATUS_DAYS * DAY })
		)
	],
	[
		PIPES.responseLogs,
		pipe(PipeParams.responseLogs, RESULT_COLUMNS, async (store, p) =>
			(await store.listResults(p)).rows.map(toResultRow)
		)
	],
	[
		PIPES.responseLogCount,
		pipe(PipeParams.responseLogCount, COUNT_COLUMNS, async (store, p) => [
			{ total: (await store.listResults({ ...p, limit: 1, offset: 0 })).total }
		])
	],
	[
		PIPES.counts1d,
		pipe(PipeParams.counts1d, COUNTS_COLUMNS, (store, { monitorIds }) =>
			store.counts({ monitorIds, since: Date.now() - DAY })
		)
	],
	[
		PIPES.recentChecks,
		pipe(PipeParams.recentChecks, RECENT_CHECK_COLUMNS, (store, p) => store.recentChecks(p))
	],
	[
		PIPES.responseLog,
		pipe(PipeParams.responseLog, RESULT_COLUMNS, async (store, { resultId }) => {
			const r = await store.getResult(resultId);
			return r ? [toResultRow(r)] : [];
		})
	]
]);

// The embedded store answers the analytics HTTP API as Tinybird does (spec 1.4.4, 4.3):
// GET /v0/pipes/<name>.json?<params> with a Bearer token; 200 with { meta, data, rows,
// statistics }, 404 for an unknown pipe or a wrong token (the same answer), 400 for bad params.
export function createPipesRouter(args: {
	analytics: AnalyticsStore;
	token: string | undefined;
}): express.Router {
	const router = express.Router();
	router.get('/v0/pipes/:file', async (req, res, next) => {
		const name = req.params.file.replace(/\.json$/, '');
		const def = Object.hasOwn(EMBEDDED_PIPES, name) ? EMBEDDED_PIPES[name] : undefined;
		const given = Buffer.from(/^Bearer (\S+)$/.exec(req.header('authorization') ?? '')?.[1] ?? '');
		const expected = Buffer.from(args.token ?? '');
		const authorized =
			expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
		if (!def || !authorized || !req.params.file.endsWith('.json')) {
			res.status(404).json({ error: `The pipe '${name}' does not exist` });
			return;
		}
		try {
			const started = performance.now();
			const result = await def.run(args.analytics, req.query);
			if ('invalid' in result) {
				res.status(400).json({ error: result.invalid });
				return;
			}
			const data = result.rows;
			res.json({
				meta: metaOf(def.columns),
				data,
				rows: data.length,
				statistics: { elapsed: (performance.now() - started) / 1000 }
			});
		} catch (err) {
			next(err);
		}
	});
	return router;
}
