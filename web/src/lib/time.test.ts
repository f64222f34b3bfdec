import { describe, expect, it } from 'vitest';
import { formatAxisTime, formatTime } from './time';

describe('formatTime', () => {
	it('writes one format with the zone, whatever the input', () => {
		expect(formatTime('2026-11-24T13:05:09.123Z')).toBe('24 Nov 2026, 13:05:09 UTC');
		expect(formatTime(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2 Jan 2026, 03:04:05 UTC');
		expect(formatTime(new Date('2026-06-30T23:59:59+02:00'))).toBe('30 Jun 2026, 21:59:59 UTC');
	});

	it('names a chosen zone and leaves seconds off times entered to the minute', () => {
		expect(formatTime('2026-12-02T02:00:00Z', { zone: 'America/New_York', seconds: false })).toBe(
			'1 Dec 2026, 21:00 GMT-5'
		);
		expect(formatTime('2026-12-02T02:00:00Z', { seconds: false })).toBe('2 Dec 2026, 02:00 UTC');
	});
});

describe('formatAxisTime', () => {
	it('keeps the zone and the 24-hour clock, without year or seconds', () => {
		expect(formatAxisTime('2026-11-24T13:05:09Z')).toBe('24 Nov, 13:05 UTC');
		expect(formatAxisTime(Date.UTC(2026, 0, 2, 0, 4, 59))).toBe('2 Jan, 00:04 UTC');
		expect(formatAxisTime('2026-12-02T02:00:00Z', { zone: 'America/New_York' })).toBe(
			'1 Dec, 21:00 GMT-5'
		);
	});

	it('reads as the start of the full format for the same instant', () => {
		const at = '2026-06-30T21:59:59Z';
		const [date, rest] = formatTime(at).split(', ');
		expect(formatAxisTime(at)).toBe(`${date.replace(/ \d{4}$/, '')}, ${rest.slice(0, 5)} UTC`);
	});
});
