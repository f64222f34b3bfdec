// Latency histogram for rollups: log-scale buckets, each 25 % wider than the one before, from
// 1 ms to past the 120 s timeout ceiling. A percentile read from it is within one bucket
// (≤ 25 %, reported as the bucket's geometric middle, so about ±12 %) of the exact value.
const GROWTH = 1.25;
export const BUCKETS = Math.ceil(Math.log(120_000) / Math.log(GROWTH)) + 2;

export function bucketOf(ms: number): number {
	if (ms < 1) return 0;
	return Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(ms) / Math.log(GROWTH)));
}

export function bucketValue(index: number): number {
	if (index === 0) return 0.5;
	return Math.pow(GROWTH, index - 1) * Math.sqrt(GROWTH);
}

export const emptyHistogram = (): number[] => new Array<number>(BUCKETS).fill(0);

export function merge(into: number[], from: number[]): number[] {
	for (let i = 0; i < BUCKETS; i++) into[i] += from[i] ?? 0;
	return into;
}

// Nearest-rank percentile over the histogram's counts.
export function histogramPercentile(hist: number[], p: number): number | null {
	const total = hist.reduce((a, b) => a + b, 0);
	if (total === 0) return null;
	const rank = Math.max(1, Math.ceil((p / 100) * total));
	let seen = 0;
	for (let i = 0; i < hist.length; i++) {
		seen += hist[i];
		if (seen >= rank) return Math.round(bucketValue(i) * 100) / 100;
	}
	return null;
}
