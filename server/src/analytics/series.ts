import type { Client } from '@libsql/client';
import { SERIES_STEP, WINDOWS, type Window } from './contract.ts';
import { emptyHistogram, histogramPercentile, merge } from './histogram.ts';

// Row shape of the `endpoint__http_latency_<window>__v1` pipes: one row per location and bucket
// that has results, oldest first.
export type LatencyPoint = {
	monitorId: number;
	locationId: number;
	bucket: number; // epoch ms, start of the bucket
	count: number; // successful and degraded checks (the ones with a latency)
	p50Latency: number | null;
	p75Latency: number | null;
	p90Latency: number | null;
	p95Latency: number | null;
	p99Latency: number | null;
};

export type LatencySeriesQuery = { monitorId: number; window: Window; locationId?: number };

// Latency percentiles per location over time, merged from the hourly rollups' histograms (never
// the raw rows): at most 24 rollup rows per location and day of the window.
export async function latencySeries(
	client: Client,
	q: LatencySeriesQuery
): Promise<LatencyPoint[]> {
	const step = SERIES_STEP[q.window];
	const since = Math.floor((Date.now() - WINDOWS[q.window]) / step) * step;
	const rs = await client.execute({
		sql: `SELECT location_id, bucket, hist FROM check_rollup_hour
			WHERE monitor_id = ? AND bucket >= ? ${q.locationId ? 'AND location_id = ?' : ''}
			ORDER BY bucket, location_id`,
		args: [q.monitorId, since, ...(q.locationId ? [q.locationId] : [])]
	});
	const points = new Map<string, { locationId: number; bucket: number; hist: number[] }>();
	for (const r of rs.rows) {
		const locationId = Number(r.location_id);
		const bucket = Math.floor(Number(r.bucket) / step) * step;
		const key = `${bucket}:${locationId}`;
		const p = points.get(key) ?? { locationId, bucket, hist: emptyHistogram() };
		merge(p.hist, JSON.parse(String(r.hist)) as number[]);
		points.set(key, p);
	}
	return [...points.values()].map((p) => ({
		monitorId: q.monitorId,
		locationId: p.locationId,
		bucket: p.bucket,
		count: p.hist.reduce((a, b) => a + b, 0),
		p50Latency: histogramPercentile(p.hist, 50),
		p75Latency: histogramPercentile(p.hist, 75),
		p90Latency: histogramPercentile(p.hist, 90),
		p95Latency: histogramPercentile(p.hist, 95),
		p99Latency: histogramPercentile(p.hist, 99)
	}));
}
