import { describe, expect, it } from 'vitest';
import { viewPath } from './view-path.ts';

describe('viewPath', () => {
	it('builds the path from base, route and params, never from the request', () => {
		expect(viewPath('/acme', '/[slug]', { slug: 'acme' })).toBe('/acme');
		expect(viewPath('', '/[slug]', { slug: '@status.acme.test' })).toBe('/');
		expect(
			viewPath('', '/[slug]/history/[month=month]', { slug: '@a.test', month: '2026-01' })
		).toBe('/history/2026-01');
		expect(viewPath('/acme', '/[slug]/reports/[id]', { slug: 'acme', id: '7' })).toBe(
			'/acme/reports/7'
		);
	});
});
