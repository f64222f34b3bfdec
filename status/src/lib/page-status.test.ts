import { describe, expect, it } from 'vitest';
import { formatDateTime, themeCss } from './page-status.ts';

describe('theme override', () => {
	it('puts light vars on :root and dark vars under prefers-color-scheme', () => {
		expect(themeCss({ light: { '--primary': '#123456' }, dark: { '--primary': '#abcdef' } })).toBe(
			':root:root{--primary:#123456}@media (prefers-color-scheme: dark){:root:root{--primary:#abcdef}}'
		);
		expect(themeCss({ light: {}, dark: {} })).toBe('');
		expect(themeCss({ light: { '--x': '</style>' }, dark: {} })).not.toContain('<');
	});
	it('formats dates in the reader locale, in UTC', () => {
		expect(formatDateTime('2026-11-20T10:05:00Z', 'en')).toBe('Nov 20, 2026, 10:05 AM UTC');
		expect(formatDateTime('2026-11-20T10:05:00Z', 'de')).toBe('20.11.2026, 10:05 UTC');
	});
});
