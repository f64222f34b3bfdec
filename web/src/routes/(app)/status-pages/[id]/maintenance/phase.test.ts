import { describe, expect, it } from 'vitest';
import { orderWindows, phaseOf } from './phase.ts';

const now = new Date('2026-06-01T12:00:00Z');
const w = (title: string, from: string, to: string) => ({ title, from, to });

describe('maintenance window order', () => {
	it('labels a window by where now falls (start inclusive, end exclusive)', () => {
		expect(phaseOf(w('a', '2026-06-01T12:00:00Z', '2026-06-01T13:00:00Z'), now)).toBe(
			'in-progress'
		);
		expect(phaseOf(w('b', '2026-06-01T11:00:00Z', '2026-06-01T12:00:00Z'), now)).toBe('past');
		expect(phaseOf(w('c', '2026-06-01T12:00:01Z', '2026-06-01T13:00:00Z'), now)).toBe('upcoming');
	});

	it('puts running and upcoming windows first by start, then past ones newest first', () => {
		const ordered = orderWindows(
			[
				w('old', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z'),
				w('later', '2026-09-01T00:00:00Z', '2026-09-01T01:00:00Z'),
				w('recent', '2026-05-30T00:00:00Z', '2026-05-30T01:00:00Z'),
				w('running', '2026-06-01T11:00:00Z', '2026-06-01T14:00:00Z'),
				w('soon', '2026-06-02T00:00:00Z', '2026-06-02T01:00:00Z')
			],
			now
		);
		expect(ordered.map((x) => [x.title, x.phase])).toEqual([
			['running', 'in-progress'],
			['soon', 'upcoming'],
			['later', 'upcoming'],
			['recent', 'past'],
			['old', 'past']
		]);
	});
});
