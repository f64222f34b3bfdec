// Wall-clock times in an IANA time zone <-> UTC instants, with Intl only (no Node, no Prisma:
// the dashboard renders with it on both sides). DST rule, deterministic:
// - a wall-clock time that occurs twice (fall back) resolves to the EARLIER instant, the one
//   before the clocks go back (as Temporal's `disambiguation: 'compatible'`);
// - a wall-clock time that does not exist (spring-forward gap) is rejected, never shifted.

import { formatTime } from './time.ts';

export type ZonedResult =
	{ ok: true; iso: string } | { ok: false; reason: 'format' | 'zone' | 'gap'; message: string };

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const HOUR = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let f = formatters.get(timeZone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit'
		});
		formatters.set(timeZone, f);
	}
	return f;
}

// The canonical name of a zone Intl accepts ("europe/berlin" → "Europe/Berlin"), else null.
export function canonicalTimeZone(timeZone: string | undefined): string | null {
	if (!timeZone) return null;
	try {
		return formatter(timeZone).resolvedOptions().timeZone;
	} catch {
		return null;
	}
}

// The wall clock of an instant in a zone, as milliseconds of a UTC-read calendar.
function wallAt(instant: number, timeZone: string): number {
	const p = Object.fromEntries(
		formatter(timeZone)
			.formatToParts(instant)
			.map((x) => [x.type, Number(x.value)])
	);
	return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

const offsetAt = (instant: number, timeZone: string) =>
	wallAt(instant, timeZone) - Math.floor(instant / 1000) * 1000;

// "2026-03-29T02:30" read in `timeZone` → the UTC instant (ISO 8601), per the rule above.
export function zonedToUtc(local: string, timeZone: string): ZonedResult {
	const m = WALL.exec(local);
	const [y, mo, d, h, mi, s] = (m?.slice(1) ?? []).map((x) => Number(x ?? 0));
	const wall = Date.UTC(y, mo - 1, d, h, mi, s);
	const date = new Date(wall);
	if (
		!m ||
		y < 1000 ||
		date.getUTCDate() !== d ||
		date.getUTCMonth() !== mo - 1 ||
		h > 23 ||
		mi > 59 ||
		s > 59
	)
		return { ok: false, reason: 'format', message: 'enter a date and time' };
	const zone = canonicalTimeZone(timeZone);
	if (!zone) return { ok: false, reason: 'zone', message: `unknown time zone "${timeZone}"` };
	// Offsets a day either side cover both sides of any transition near this wall clock; keep
	// the candidates that really show this wall clock, earliest first.
	const offsets = new Set([-24, 0, 24].map((k) => offsetAt(wall + k * HOUR, zone)));
	const hits = [...offsets]
		.map((o) => wall - o)
		.filter((t) => wallAt(t, zone) === wall)
		.sort((a, b) => a - b);
	if (hits.length === 0)
		return {
			ok: false,
			reason: 'gap',
			message: `${local.replace('T', ' ')} does not exist in ${zone} (the clocks go forward then); choose a time outside the gap`
		};
	return { ok: true, iso: new Date(hits[0]).toISOString() };
}

// A form field read in `timeZone`. `original` is the instant the field was rendered from: while
// the field still shows it, it stands, so saving an untouched field never moves a time from the
// repeated hour to the earlier one, nor drops its seconds.
export function readZonedField(local: string, timeZone: string, original?: string): ZonedResult {
	const zone = canonicalTimeZone(timeZone);
	if (zone && original && !Number.isNaN(Date.parse(original)))
		if (utcToZonedInput(original, zone) === local)
			return { ok: true, iso: new Date(original).toISOString() };
	return zonedToUtc(local, timeZone);
}

// An instant as the "YYYY-MM-DDTHH:mm" a datetime-local input shows in `timeZone`.
export const utcToZonedInput = (iso: string, timeZone: string) =>
	new Date(wallAt(Date.parse(iso), timeZone)).toISOString().slice(0, 16);

// "22 Nov 2026, 23:00 CET": the dashboard's one format ($lib/time) in a zone, to the minute.
export const formatInZone = (iso: string, timeZone: string) =>
	formatTime(iso, { zone: timeZone, seconds: false });

// UTC first, then every zone this runtime knows, plus `extra` (a browser or cookie zone that is
// an alias the list lacks) so a select can always show the zone in use.
export function timeZoneOptions(extra: string[] = []): string[] {
	const known = Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC');
	const more = extra.filter((z) => z !== 'UTC' && !known.includes(z));
	return ['UTC', ...more, ...known];
}
