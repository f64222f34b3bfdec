// Geometry for the server-rendered latency chart: pure, so it is unit-tested and needs no JS
// in the browser. Times are epoch ms; the y axis starts at 0 and ends at a "nice" ceiling.
export const PERCENTILES = ['p50', 'p75', 'p90', 'p95', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];

export type LatencyPoint = {
	timestamp: string;
	count: number;
} & { [K in `${Percentile}Latency`]: number | null };

// stepMs: the bucket size; buckets without results are absent from the rows.
export type Dot = { x: number; y: number };

export type ChartBox = { width: number; height: number; from: number; to: number; stepMs: number };

export function niceCeiling(ms: number): number {
	if (ms <= 0) return 10;
	const power = 10 ** Math.floor(Math.log10(ms));
	const step = [1, 2, 5, 10].find((s) => s * power >= ms) ?? 10;
	return step * power;
}

// One SVG path per percentile; a bucket without results (null, or missing) breaks the line.
export function latencyPaths(
	points: LatencyPoint[],
	box: ChartBox
): { max: number; paths: Record<Percentile, string>; dots: Record<Percentile, Dot[]> } {
	const max = niceCeiling(Math.max(0, ...points.map((p) => p.p99Latency ?? 0)));
	const x = (t: number) => ((t - box.from) / (box.to - box.from || 1)) * box.width;
	const y = (v: number) => box.height - (v / max) * box.height;
	const paths = {} as Record<Percentile, string>;
	const dots = {} as Record<Percentile, Dot[]>;
	for (const p of PERCENTILES) {
		const runs: Dot[][] = [];
		let last = -Infinity;
		for (const point of points) {
			const v = point[`${p}Latency`];
			const t = Date.parse(point.timestamp);
			if (v === null) continue;
			if (t - last > box.stepMs) runs.push([]);
			runs[runs.length - 1].push({ x: round(x(t)), y: round(y(v)) });
			last = t;
		}
		paths[p] = runs
			.map((r) => r.map((d, i) => `${i ? 'L' : 'M'}${d.x},${d.y}`).join(' '))
			.join(' ');
		// A lone point draws no line: it is shown as a dot.
		dots[p] = runs.filter((r) => r.length === 1).map((r) => r[0]);
	}
	return { max, paths, dots };
}

const round = (n: number) => Math.round(n * 10) / 10;
