import { describe, expect, it } from 'vitest';
import { barHeights, countOutcomes, describeCheck, type Check } from './heartbeat';

const check = (over: Partial<Check>): Check => ({
	at: '2026-11-24T13:05:09Z',
	outcome: 'success',
	latency: 120.4,
	statusCode: 200,
	error: '',
	...over
});

describe('heartbeat', () => {
	it('describes a check: time with zone, status and code, latency, error', () => {
		expect(describeCheck(check({}))).toBe('24 Nov 2026, 13:05:09 UTC · Up (200) · 120 ms');
		expect(
			describeCheck(check({ outcome: 'error', statusCode: null, error: 'connect ECONNREFUSED' }))
		).toBe('24 Nov 2026, 13:05:09 UTC · Down · 120 ms · connect ECONNREFUSED');
	});
	it('scales bars to the slowest check, a quarter at least', () => {
		expect(
			barHeights([check({ latency: 0 }), check({ latency: 50 }), check({ latency: 100 })])
		).toEqual([25, 63, 100]);
		expect(barHeights([])).toEqual([]);
	});
	it('counts outcomes, naming only those that occurred besides up', () => {
		expect(countOutcomes([check({}), check({ outcome: 'error' })])).toBe('1 up, 1 down');
		expect(countOutcomes([])).toBe('0 up');
	});
});
