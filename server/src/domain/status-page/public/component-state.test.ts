import { describe, expect, it } from 'vitest';
import { componentState, overallBanner } from './component-state.ts';

describe('componentState', () => {
	it('a non-operational report impact wins over maintenance and the monitor', () => {
		expect(
			componentState({
				reportImpact: 'partial_outage',
				inMaintenance: true,
				monitorStatus: 'active'
			})
		).toBe('partial_outage');
	});
	it('maintenance in progress wins over an operational impact and the monitor', () => {
		expect(
			componentState({ reportImpact: 'operational', inMaintenance: true, monitorStatus: 'error' })
		).toBe('under_maintenance');
		expect(componentState({ reportImpact: null, inMaintenance: true, monitorStatus: null })).toBe(
			'under_maintenance'
		);
	});
	it('an operational impact overrides a failing monitor (the team said it is fine)', () => {
		expect(
			componentState({ reportImpact: 'operational', inMaintenance: false, monitorStatus: 'error' })
		).toBe('operational');
	});
	it('falls back to the monitor, and static components are operational', () => {
		const of = (monitorStatus: 'active' | 'degraded' | 'error' | 'unknown' | null) =>
			componentState({ reportImpact: null, inMaintenance: false, monitorStatus });
		expect([of('active'), of('degraded'), of('error'), of('unknown'), of(null)]).toEqual([
			'operational',
			'degraded_performance',
			'major_outage',
			'unknown',
			'operational'
		]);
	});
});

describe('overallBanner', () => {
	it('is major outage only when every known component is down', () => {
		expect(overallBanner(['major_outage', 'major_outage', 'unknown'])).toBe('major_outage');
		expect(overallBanner(['major_outage', 'operational'])).toBe('partial_outage');
	});
	it('ranks partial > degraded > maintenance > operational', () => {
		expect(overallBanner(['partial_outage', 'degraded_performance'])).toBe('partial_outage');
		expect(overallBanner(['degraded_performance', 'under_maintenance'])).toBe(
			'degraded_performance'
		);
		expect(overallBanner(['under_maintenance', 'operational'])).toBe('under_maintenance');
		expect(overallBanner(['operational', 'unknown'])).toBe('operational');
	});
	it('is operational with no components or no data', () => {
		expect(overallBanner([])).toBe('operational');
		expect(overallBanner(['unknown'])).toBe('operational');
	});
});
