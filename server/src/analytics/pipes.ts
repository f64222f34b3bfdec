import { timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { AnalyticsStore } from './index.ts';

const WINDOW_MS = { '1d': 86_400_000, '7d': 7 * 86_400_000, '14d': 14 * 86_400_000 } as const;
const PIPE = /^endpoint__http_metrics_(1d|7d|14d)__v1$/;

// The embedded store answers the analytics HTTP API the way the spec's verification query
// expects (1.4.4, 4.3): GET /v0/pipes/<name>.json?monitorId=… with a Bearer token; 200 with JSON
// rows, 404 for an unknown pipe or a wrong token (the same answer, as Tinybird gives).
export function createPipesRouter(args: {
	analytics: AnalyticsStore;
	token: string | undefined;
}): express.Router {
	const router = express.Router();
	router.get('/v0/pipes/:file', async (req, res) => {
		const name = req.params.file.replace(/\.json$/, '');
		const window = PIPE.exec(name)?.[1] as keyof typeof WINDOW_MS | undefined;
		const given = Buffer.from(/^Bearer (\S+)$/.exec(req.header('authorization') ?? '')?.[1] ?? '');
		const expected = Buffer.from(args.token ?? '');
		const authorized =
			expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
		if (!window || !authorized || !req.params.file.endsWith('.json')) {
			res.status(404).json({ error: `The pipe '${name}' does not exist` });
			return;
		}
		const monitorId = Number(req.query.monitorId);
		if (!Number.isInteger(monitorId) || monitorId <= 0) {
			res.status(400).json({ error: 'monitorId must be a positive integer' });
			return;
		}
		const started = performance.now();
		const row = await args.analytics.summary({ monitorId, since: Date.now() - WINDOW_MS[window] });
		const data = [{ monitorId, ...row }];
		res.json({
			meta: Object.keys(data[0]).map((key) => ({
				name: key,
				type: key === 'lastPingAt' ? 'Nullable(Int64)' : 'Float64'
			})),
			data,
			rows: data.length,
			statistics: { elapsed: (performance.now() - started) / 1000 }
		});
	});
	return router;
}
