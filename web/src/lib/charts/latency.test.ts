import { describe, expect, it } from 'vitest';
import { latencyPaths, niceCeiling, type LatencyPoint } from './latency.ts';

const point = (t: number, p50: number | null, p99: number | null): LatencyPoint => ({
	timestamp: new Date(t).toISOString(),
	count: 1,
	p50Latency: p50,
	p75Latency: p50,
	p90Latency: p99,
	p95Latency: p99,
	p99Latency: p99
});

describe('latency chart geometry', () => {
	it('rounds the y axis up to 1, 2 or 5 times a power of ten', () => {
		expect([0, 7, 12, 180, 201, 4999].map(niceCeiling)).toEqual([10, 10, 20, 200, 500, 5000]);
	});

	it('places points on time and latency, and breaks the line where a bucket is empty', () => {
		const { max, paths, dots } = latencyPaths(
			[point(0, 10, 40), point(50, null, null), point(100, 30, 100)],
			{ width: 200, height: 100, from: 0, to: 100, stepMs: 50 }
		);
		expect(max).toBe(100);
		expect(paths.p99).toBe('M0,60 M200,0');
		expect(paths.p50).toBe('M0,90 M200,70');
		expect(dots.p50).toEqual([
			{ x: 0, y: 90 },
			{ x: 200, y: 70 }
		]);
		const box = { width: 200, height: 100, from: 0, to: 100 };
		const pts = [point(0, 10, 40), point(50, 20, 60), point(100, 30, 100)];
		const joined = latencyPaths(pts, { ...box, stepMs: 50 });
		expect(joined.paths.p50).toBe('M0,90 L100,80 L200,70');
		expect(joined.dots.p50).toEqual([]);
		// A bucket missing from the rows breaks the line too.
		expect(latencyPaths([pts[0], pts[2]], { ...box, stepMs: 50 }).paths.p50).toBe('M0,90 M200,70');
	});
});
