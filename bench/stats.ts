export const pct = (sorted: number[], p: number): number =>
	sorted.length
		? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
		: Number.NaN;
export const fmt = (n: number): string => n.toFixed(2);
