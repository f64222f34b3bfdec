import { describe, expect, it } from 'vitest';
import {
	canonicalTimeZone,
	formatInZone,
	readZonedField,
	timeZoneOptions,
	utcToZonedInput,
	zonedToUtc
} from './time-zone.ts';

const iso = (local: string, zone: string) => {
	const r = zonedToUtc(local, zone);
	return r.ok ? r.iso : r.reason;
};

describe('zonedToUtc', () => {
	it('reads UTC as UTC, with or without seconds', () => {
		expect(iso('2026-12-01T02:00', 'UTC')).toBe('2026-12-01T02:00:00.000Z');
		expect(iso('2026-12-01T02:00:30', 'UTC')).toBe('2026-12-01T02:00:30.000Z');
	});

	it('subtracts a positive offset and adds a negative one', () => {
		expect(iso('2026-11-22T23:00', 'Europe/Berlin')).toBe('2026-11-22T22:00:00.000Z'); // CET +1
		expect(iso('2026-07-01T09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z'); // CEST +2
		expect(iso('2026-07-01T09:00', 'Asia/Kolkata')).toBe('2026-07-01T03:30:00.000Z'); // +5:30
		expect(iso('2026-12-01T21:00', 'America/New_York')).toBe('2026-12-02T02:00:00.000Z'); // -5
		expect(iso('2026-07-01T21:00', 'America/New_York')).toBe('2026-07-02T01:00:00.000Z'); // -4
	});

	it('rejects a wall clock inside the spring-forward gap', () => {
		// Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST; New York 2026-03-08 02:00 → 03:00.
		const r = zonedToUtc('2026-03-29T02:30', 'Europe/Berlin');
		expect(r).toEqual({
			ok: false,
			reason: 'gap',
			message:
				'2026-03-29 02:30 does not exist in Europe/Berlin (the clocks go forward then); choose a time outside the gap'
		});
		expect(iso('2026-03-08T02:00', 'America/New_York')).toBe('gap');
		// Either side of the gap is fine.
		expect(iso('2026-03-29T01:59', 'Europe/Berlin')).toBe('2026-03-29T00:59:00.000Z');
		expect(iso('2026-03-29T03:00', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
	});

	it('resolves a repeated fall-back wall clock to the earlier instant', () => {
		// Berlin 2026-10-25: 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET).
		expect(iso('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
		// New York 2026-11-01: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST).
		expect(iso('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
		expect(iso('2026-11-01T02:00', 'America/New_York')).toBe('2026-11-01T07:00:00.000Z');
	});

	it('handles a southern-hemisphere zone, whose DST runs over new year', () => {
		expect(iso('2027-01-15T12:00', 'Australia/Sydney')).toBe('2027-01-15T01:00:00.000Z'); // +11
		expect(iso('2026-10-04T02:30', 'Australia/Sydney')).toBe('gap');
	});

	it('rejects malformed input and unknown zones', () => {
		for (const bad of [
			'',
			'2026-12-01',
			'2026-12-01 02:00',
			'2026-02-30T10:00',
			'2026-12-01T24:00'
		])
			expect(zonedToUtc(bad, 'UTC')).toMatchObject({ ok: false, reason: 'format' });
		expect(zonedToUtc('2026-12-01T02:00', 'Mars/Olympus_Mons')).toEqual({
			ok: false,
			reason: 'zone',
			message: 'unknown time zone "Mars/Olympus_Mons"'
		});
		expect(zonedToUtc('2026-12-01T02:00', '')).toMatchObject({ ok: false, reason: 'zone' });
	});
});

describe('showing instants in a zone', () => {
	it('round-trips through the datetime-local value, except the repeated hour', () => {
		for (const [at, zone] of [
			['2026-11-22T22:00:00.000Z', 'Europe/Berlin'],
			['2026-03-08T07:00:00.000Z', 'America/New_York'],
			['2026-10-25T00:30:00.000Z', 'Europe/Berlin']
		])
			expect(iso(utcToZonedInput(at, zone), zone)).toBe(at);
		// The later 02:30 shows as 02:30 too, and reads back as the earlier one.
		expect(utcToZonedInput('2026-10-25T01:30:00.000Z', 'Europe/Berlin')).toBe('2026-10-25T02:30');
	});

	it('keeps the instant a field was rendered from while the field still shows it', () => {
		const later = '2026-10-25T01:30:00.000Z'; // the second 02:30 in Berlin
		const read = (local: string, original?: string) =>
			readZonedField(local, 'Europe/Berlin', original);
		expect(read('2026-10-25T02:30', later)).toEqual({ ok: true, iso: later });
		expect(read('2026-10-25T02:30')).toEqual({ ok: true, iso: '2026-10-25T00:30:00.000Z' });
		// Seconds set through the API survive a save from the dashboard.
		expect(read('2026-12-01T03:00', '2026-12-01T02:00:30.000Z')).toEqual({
			ok: true,
			iso: '2026-12-01T02:00:30.000Z'
		});
		// An edited field, or a different zone, is read afresh.
		expect(read('2026-10-25T03:30', later)).toEqual({ ok: true, iso: '2026-10-25T02:30:00.000Z' });
		expect(readZonedField('2026-10-25T02:30', 'UTC', later)).toEqual({
			ok: true,
			iso: '2026-10-25T02:30:00.000Z'
		});
	});

	it('names the zone in lists', () => {
		expect(formatInZone('2026-11-22T22:00:00Z', 'Europe/Berlin')).toBe('22 Nov 2026, 23:00 CET');
		expect(formatInZone('2026-11-22T22:00:00Z', 'UTC')).toBe('22 Nov 2026, 22:00 UTC');
		expect(formatInZone('2026-11-22T22:00:00Z', 'America/New_York')).toBe(
			'22 Nov 2026, 17:00 GMT-5'
		);
	});

	it('canonicalises zone names and lists UTC first, with aliases the runtime lacks', () => {
		expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
		expect(canonicalTimeZone('Nowhere/Else')).toBeNull();
		const options = timeZoneOptions(['Etc/GMT+5']);
		expect(options.slice(0, 2)).toEqual(['UTC', 'Etc/GMT+5']);
		expect(options).toContain('America/New_York');
		expect(new Set(options).size).toBe(options.length);
	});
});
