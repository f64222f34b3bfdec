import { describe, expect, it } from 'vitest';
import type { UptimeDay } from './page-status.ts';
import { describeDay, uptimeCellsHtml } from './uptime-cells.ts';

const day = (over: Partial<UptimeDay> = {}): UptimeDay => ({
	day: '2026-11-03',
	uptime: 99.5,
	checks: 1440,
	failed: 7,
	color: 'degraded',
	reports: [],
	maintenances: [],
	...over
});

describe('uptime cells', () => {
	it('describes a day with its uptime, counts, reports and maintenance', () => {
		expect(
			describeDay(
				day({ reports: [{ id: 1, title: 'API errors' }], maintenances: [{ id: 2, title: 'DB' }] }),
				'en'
			)
		).toBe('Nov 3, 2026 · 99.5% uptime, 1440 checks, 7 failed · API errors · Maintenance: DB');
		expect(describeDay(day({ uptime: null, checks: 0, failed: 0 }), 'en')).toBe(
			'Nov 3, 2026 · No data'
		);
	});

	it('formats in the reader locale', () => {
		expect(describeDay(day(), 'de')).toMatch(/^03\.11\.2026 · 99,5/);
	});

	it('renders one focusable cell per day with its colour class, escaping titles', () => {
		const html = uptimeCellsHtml(
			[day({ color: 'major', reports: [{ id: 1, title: '<script>x</script> & co' }] }), day()],
			'en'
		);
		expect(html.match(/<li><button class="(\w)">/g)).toEqual([
			'<li><button class="x">',
			'<li><button class="d">'
		]);
		expect(html).toContain('&lt;script&gt;x&lt;/script&gt; &amp; co');
		expect(html).not.toContain('<script>');
	});
});
