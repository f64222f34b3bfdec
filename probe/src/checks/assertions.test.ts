import { describe, expect, it } from 'vitest';
import { compareNumber, compareString } from './assertions.ts';
import { parsePing } from './icmp.ts';

describe('assertion comparators (spec 2.5, 2.7)', () => {
	it('compares numbers with every comparator', () => {
		expect([
			compareNumber(200, 'eq', 200),
			compareNumber(200, 'neq', 201),
			compareNumber(500, 'gt', 499),
			compareNumber(500, 'gte', 500),
			compareNumber(200, 'lt', 300),
			compareNumber(300, 'lte', 300)
		]).toEqual([true, true, true, true, true, true]);
		expect(compareNumber(300, 'lt', 300)).toBe(false);
	});

	it('compares text, and numbers written as text numerically', () => {
		expect(compareString('hello world', 'contains', 'world')).toBe(true);
		expect(compareString('hello', 'not_contains', 'world')).toBe(true);
		expect(compareString('', 'empty', '')).toBe(true);
		expect(compareString('x', 'not_empty', '')).toBe(true);
		expect(compareString('10', 'gt', '9')).toBe(true); // numeric, not lexicographic
		expect(compareString('b', 'gt', 'a')).toBe(true);
		expect(compareString('abc', 'eq', 'abd')).toBe(false);
	});

	it('reads iputils ping summaries', () => {
		const out =
			'3 packets transmitted, 2 received, 33.3333% packet loss, time 402ms\nrtt min/avg/max/mdev = 0.041/0.048/0.061/0.009 ms\n';
		expect(parsePing(out)).toEqual({ transmitted: 3, received: 2, avg: 0.048 });
		expect(parsePing('3 packets transmitted, 0 received, 100% packet loss')).toEqual({
			transmitted: 3,
			received: 0,
			avg: null
		});
	});
});
