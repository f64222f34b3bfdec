import { describe, expect, it } from 'vitest';
import { quorumStatus } from './quorum.ts';

describe('monitor status quorum', () => {
	it('changes when at least half of the reporting locations agree, worst first on a tie', () => {
		expect(quorumStatus(['error'], 'active')).toBe('error');
		expect(quorumStatus(['error', 'active', 'active'], 'active')).toBe('active');
		expect(quorumStatus(['error', 'error', 'active'], 'active')).toBe('error');
		expect(quorumStatus(['error', 'active'], 'active')).toBe('error');
		expect(quorumStatus(['degraded', 'active', 'active', 'error'], 'error')).toBe('active');
		expect(quorumStatus(['unknown', 'unknown'], 'active')).toBe('active');
		expect(quorumStatus(['degraded', 'error', 'active'], 'unknown')).toBe('unknown');
	});
});
