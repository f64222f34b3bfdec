import { describe, expect, it } from 'vitest';
import { buildUptimeDays, uptimeWindow, type DayEvent } from './uptime.ts';

const now = new Date('2026-11-22T12:00:00Z');
const at = (iso: string) => new Date(iso);
const one = (counts: [number, number, number] | null, events: DayEvent[] = []) =>
	buildUptimeDays({
		days: ['2026-11-20'],
		counts: new Map(
			counts ? [['2026-11-20', { success: counts[0], degraded: counts[1], error: counts[2] }]] : []
		),
		events,
		now
	})[0];

describe('uptime days', () => {
	it('covers 90 UTC days ending today, oldest first', () => {
		const days = uptimeWindow(now);
		expect(days).toHaveLength(90);
		expect(days.at(-1)).toBe('2026-11-22');
		expect(days[0]).toBe('2026-08-25');
	});

	it('uptime counts degraded checks as up and is null without checks', () => {
		expect(one([90, 8, 2])).toMatchObject({
			uptime: 98,
			checks: 100,
			failed: 2,
			color: 'degraded'
		});
		expect(one([10, 5, 0])).toMatchObject({ uptime: 100, color: 'operational' });
		expect(one([2, 0, 1])?.uptime).toBe(66.67);
		expect(one(null)).toMatchObject({ uptime: null, checks: 0, color: 'empty' });
	});

	it('colours by the worst report impact or open incident of the day', () => {
		const partial: DayEvent = {
			kind: 'report',
			id: 1,
			title: 'Slow API',
			impact: 'partial_outage',
			from: at('2026-11-20T10:00:00Z'),
			to: at('2026-11-20T11:00:00Z')
		};
		expect(one([100, 0, 0], [partial])).toMatchObject({
			color: 'partial',
			uptime: 100,
			reports: [{ id: 1, title: 'Slow API' }]
		});
		// An incident opened the day before and still open is a major outage on this day.
		const incident: DayEvent = { kind: 'incident', from: at('2026-11-19T23:00:00Z'), to: null };
		expect(one([100, 0, 0], [partial, incident])?.color).toBe('major');
		// Events outside the day do not colour it.
		const before: DayEvent = { ...incident, to: at('2026-11-19T23:59:00Z') };
		expect(one([100, 0, 0], [before])?.color).toBe('operational');
	});

	it('shows maintenance on a day without worse events and lists it', () => {
		const m: DayEvent = {
			kind: 'maintenance',
			id: 7,
			title: 'DB upgrade',
			from: at('2026-11-20T02:00:00Z'),
			to: at('2026-11-20T03:00:00Z')
		};
		expect(one([50, 0, 3], [m])).toMatchObject({
			color: 'maintenance',
			maintenances: [{ id: 7, title: 'DB upgrade' }]
		});
	});
});
