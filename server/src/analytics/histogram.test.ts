import { describe, expect, it } from 'vitest';
import { bucketOf, emptyHistogram, histogramPercentile } from './histogram.ts';

describe('latency histogram', () => {
	it('reads percentiles within one bucket of the exact value', () => {
		const hist = emptyHistogram();
		const values = Array.from({ length: 1000 }, (_, i) => i + 1);
		for (const v of values) hist[bucketOf(v)]++;
		for (const p of [50, 75, 90, 95, 99]) {
			const exact = values[Math.ceil((p / 100) * values.length) - 1];
			const read = histogramPercentile(hist, p) as number;
			expect(Math.abs(read - exact) / exact).toBeLessThan(0.13);
		}
		expect(histogramPercentile(emptyHistogram(), 50)).toBeNull();
		expect(bucketOf(0.2)).toBe(0);
		expect(bucketOf(10_000_000)).toBe(hist.length - 1);
	});
});
