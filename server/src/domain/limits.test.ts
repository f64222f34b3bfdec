import { describe, expect, it } from 'vitest';
import { FREE_PLAN_LIMITS, requireCount, requireFeature, resolveLimits } from './limits.ts';
import { isRegionAllowed } from './regions.ts';

describe('workspace limits (spec 2.3)', () => {
	it('falls back to the free plan for missing, malformed or unknown keys, never to unlimited', () => {
		expect(resolveLimits('{}')).toEqual(FREE_PLAN_LIMITS);
		expect(resolveLimits(null)).toEqual(FREE_PLAN_LIMITS);
		expect(resolveLimits('not json')).toEqual(FREE_PLAN_LIMITS);
		const limits = resolveLimits(
			JSON.stringify({
				monitors: 50,
				'page-components': 'lots',
				otel: 'yes',
				bogus: true,
				members: 'Unlimited'
			})
		);
		expect(limits.monitors).toBe(50);
		expect(limits['page-components']).toBe(3);
		expect(limits.otel).toBe(false);
		expect(limits.members).toBe('Unlimited');
		expect(limits).not.toHaveProperty('bogus');
	});

	it('caps the free plan at 3 page components and 6 regions without OTLP, logs, theme or translations', () => {
		expect(FREE_PLAN_LIMITS).toMatchObject({
			'page-components': 3,
			'max-regions': 6,
			otel: false,
			screenshots: false,
			'response-logs': false,
			'custom-theme': false,
			i18n: false
		});
		expect(FREE_PLAN_LIMITS.regions).toHaveLength(6);
	});

	it('throws LIMIT_EXCEEDED naming the key', () => {
		expect(() => requireCount(FREE_PLAN_LIMITS, 'monitors', 1)).toThrow(
			"limit 'monitors' reached: your plan allows 1"
		);
		expect(() =>
			requireCount(resolveLimits('{"members":"Unlimited"}'), 'members', 10_000)
		).not.toThrow();
		expect(() => requireFeature(FREE_PLAN_LIMITS, 'sms')).toThrow(
			"your plan does not include 'sms'"
		);
	});

	it('matches monitor regions against the underscore form of limits.regions', () => {
		expect(isRegionAllowed('a-ams', ['ams'])).toBe(true);
		expect(isRegionAllowed('b-fra', ['b_fra'])).toBe(true);
		expect(isRegionAllowed('c-us-west2', ['c_us-west2-a'])).toBe(true);
		expect(isRegionAllowed('a-fra', ['b_fra'])).toBe(false);
	});
});
