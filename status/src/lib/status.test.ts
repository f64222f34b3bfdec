import { describe, expect, it } from 'vitest';
import { overallStatus } from './status.ts';

describe('overallStatus', () => {
	it('lets the worst component decide the banner', () => {
		expect(overallStatus(['active', 'degraded', 'error'])).toBe('outage');
		expect(overallStatus(['active', 'degraded', 'unknown'])).toBe('degraded');
		expect(overallStatus(['active', 'unknown'])).toBe('operational');
		expect(overallStatus(['unknown'])).toBe('unknown');
		expect(overallStatus([])).toBe('unknown');
	});
});
