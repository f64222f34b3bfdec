// Transport errors as short, stable words for the response log (never certificate details).
const CERT_CODES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'ERR_TLS_CERT_ALTNAME_INVALID'
]);

export function describeError(err: unknown): string {
	const e = err as NodeJS.ErrnoException;
	if (e?.code && CERT_CODES.has(e.code)) return 'certificate verification failed';
	switch (e?.code) {
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ECONNRESET':
			return 'connection reset';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'DNS lookup failed';
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return 'host unreachable';
	}
	return e instanceof Error ? e.message : String(err);
}

// Runs attempts until one succeeds, the retries are used up, or the budget is spent.
export async function withRetries<T extends { failed: boolean; retryable?: boolean }>(
	retry: number,
	budgetMs: number,
	attempt: (remainingMs: number) => Promise<T>
): Promise<{ result: T; attempts: number }> {
	const deadline = performance.now() + budgetMs;
	let attempts = 0;
	for (;;) {
		attempts++;
		const result = await attempt(Math.max(0, deadline - performance.now()));
		const canRetry =
			result.failed &&
			result.retryable !== false &&
			attempts <= retry &&
			deadline - performance.now() > 0;
		if (!canRetry) return { result, attempts };
	}
}
