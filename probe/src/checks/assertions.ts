import { isSecretHeader, REDACTED } from './redact.ts';
import type {
	AssertionResult,
	Comparator,
	DnsMonitor,
	HttpMonitor,
	StringComparator
} from './types.ts';

export function compareNumber(actual: number, comparator: Comparator, target: number): boolean {
	switch (comparator) {
		case 'eq':
			return actual === target;
		case 'neq':
			return actual !== target;
		case 'gt':
			return actual > target;
		case 'gte':
			return actual >= target;
		case 'lt':
			return actual < target;
		case 'lte':
			return actual <= target;
	}
}

// Ordering comparators compare numbers when both sides are numbers, text otherwise.
export function compareString(
	actual: string,
	comparator: StringComparator,
	target: string
): boolean {
	switch (comparator) {
		case 'contains':
			return actual.includes(target);
		case 'not_contains':
			return !actual.includes(target);
		case 'empty':
			return actual.length === 0;
		case 'not_empty':
			return actual.length > 0;
		case 'eq':
			return actual === target;
		case 'neq':
			return actual !== target;
		default: {
			const [a, t] = [Number(actual), Number(target)];
			if (actual.trim() !== '' && target.trim() !== '' && Number.isFinite(a) && Number.isFinite(t))
				return compareNumber(a, comparator, t);
			const order = actual.localeCompare(target);
			return compareNumber(order, comparator, 0);
		}
	}
}

const short = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

export function evaluateHttpAssertions(
	m: HttpMonitor,
	res: { status: number; body: string; headers: Record<string, string> }
): AssertionResult[] {
	// Without status assertions, a 2xx answer is expected.
	const statusRules =
		m.status_code_assertions.length > 0
			? m.status_code_assertions
			: [
					{ comparator: 'gte' as const, target: 200 },
					{ comparator: 'lt' as const, target: 300 }
				];
	return [
		...statusRules.map((a) => ({
			kind: 'status' as const,
			description: `status ${a.comparator} ${a.target}`,
			passed: compareNumber(res.status, a.comparator, a.target),
			actual: String(res.status)
		})),
		...m.body_assertions.map((a) => ({
			kind: 'body' as const,
			description: `body ${a.comparator} ${JSON.stringify(a.target)}`,
			passed: compareString(res.body, a.comparator, a.target),
			actual: short(res.body)
		})),
		...m.header_assertions.map((a) => {
			const actual = res.headers[a.key.toLowerCase()] ?? '';
			// Judged on the real value, stored like the response headers: a secret stays out of
			// the response log and the error text.
			return {
				kind: 'header' as const,
				description: `header ${a.key} ${a.comparator} ${JSON.stringify(a.target)}`,
				passed: compareString(actual, a.comparator, a.target),
				actual: isSecretHeader(a.key) ? REDACTED : actual
			};
		})
	];
}

// A record assertion passes when any answer of that type satisfies it (eq/contains), or none
// violates it (neq/not_contains).
export function evaluateRecordAssertions(
	m: DnsMonitor,
	records: Partial<Record<string, string[]>>
): AssertionResult[] {
	return m.record_assertions.map((a) => {
		const values = records[a.record] ?? [];
		const negative = a.comparator === 'neq' || a.comparator === 'not_contains';
		const passed = negative
			? values.every((v) => compareString(v, a.comparator, a.target))
			: values.some((v) => compareString(v, a.comparator, a.target));
		return {
			kind: 'record',
			description: `${a.record} ${a.comparator} ${JSON.stringify(a.target)}`,
			passed,
			actual: values.join(', ')
		};
	});
}
