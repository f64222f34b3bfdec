import type { AssertionResult, CheckResult } from './types.ts';

// The ingest server's caps (server/src/domain/check-result/schemas.ts, CheckResultInput). One value
// over them fails the whole batch, and the batch is retried forever, so every result is cut to fit
// before it is queued; limits.test.ts checks the result against that schema.
export const RESULT_LIMITS = { error: 2000, headerValue: 4096, assertionsJson: 65536 } as const;
// Per-field caps for an assertion's description and actual, tried in turn until the JSON fits.
const ASSERTION_FIELD_CAPS = [1024, 256, 64, 16];

// Cuts `s` to at most `max` UTF-16 units (zod's .max counts those), marking the cut with `…`
// and never splitting a surrogate pair.
export function truncate(s: string, max: number): string {
	if (s.length <= max) return s;
	let end = max - 1;
	const last = s.charCodeAt(end - 1);
	if (last >= 0xd800 && last <= 0xdbff) end--;
	return `${s.slice(0, end)}…`;
}

function capAssertions(assertions: AssertionResult[]): AssertionResult[] {
	if (JSON.stringify(assertions).length <= RESULT_LIMITS.assertionsJson) return assertions;
	let capped = assertions;
	for (const cap of ASSERTION_FIELD_CAPS) {
		capped = assertions.map((a) => ({
			...a,
			description: truncate(a.description, cap),
			actual: truncate(a.actual, cap)
		}));
		if (JSON.stringify(capped).length <= RESULT_LIMITS.assertionsJson) break;
	}
	return capped;
}

// Every check's result goes through this (runCheck, and delivery for results queued earlier).
export function capResult<T extends CheckResult>(r: T): T {
	return {
		...r,
		...(r.error !== undefined ? { error: truncate(r.error, RESULT_LIMITS.error) } : {}),
		...(r.headers
			? {
					headers: Object.fromEntries(
						Object.entries(r.headers).map(([k, v]) => [k, truncate(v, RESULT_LIMITS.headerValue)])
					)
				}
			: {}),
		...(r.assertions ? { assertions: capAssertions(r.assertions) } : {})
	};
}
