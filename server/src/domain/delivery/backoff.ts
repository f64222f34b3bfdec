// Retry schedule of the outbox: attempt n failed → next try after BASE × 2^(n-1), so with the
// default 30 s base: 30 s, 1 min, 2 min, 4 min, 8 min, 16 min, 32 min; the 8th failure is final
// (about an hour of trying in all).
export const MAX_ATTEMPTS = 8;
export const DEFAULT_BASE_DELAY_MS = 30_000;

export function retryDelayMs(attempt: number, baseDelayMs = DEFAULT_BASE_DELAY_MS): number {
	return baseDelayMs * 2 ** (attempt - 1);
}
