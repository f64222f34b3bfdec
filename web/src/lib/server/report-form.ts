import type { Cookies } from '@sveltejs/kit';
import { getUpstate, ServiceError } from '@upstate/server';
import { canonicalTimeZone, readZonedField } from '$lib/time-zone';

type Impact = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage';

// Checkbox lists post one `pageComponentIds` entry per ticked component.
export const componentIds = (data: FormData) =>
	data.getAll('pageComponentIds').map((v) => Number(v));

// One select per component named `impact_<id>`; empty means "no impact set by this update".
export function impacts(data: FormData): Array<{ componentId: number; impact: Impact }> {
	return [...data.entries()]
		.filter(([k, v]) => k.startsWith('impact_') && typeof v === 'string' && v !== '')
		.map(([k, v]) => ({ componentId: Number(k.slice('impact_'.length)), impact: v as Impact }));
}

const invalid = (path: string, message: string) =>
	new ServiceError('VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });

// The form's `timeZone` field, canonicalised; UTC when absent (the no-JS default).
export function timeZone(v: Record<string, string>): string {
	const zone = canonicalTimeZone(v.timeZone || 'UTC');
	if (!zone) throw invalid('timeZone', `unknown time zone "${v.timeZone}"`);
	return zone;
}

// A datetime-local value read in `zone` as a UTC ISO instant (DST rule in $lib/time-zone); the
// edit form posts `<path>Original`, the stored instant the field was rendered from.
export function zonedInstant(v: Record<string, string>, path: 'from' | 'to', zone: string): string {
	const r = readZonedField(v[path] ?? '', zone, v[`${path}Original`]);
	if (!r.ok) throw invalid(path, r.message);
	return r.iso;
}

// The zone an operator last scheduled in, so the next visit shows and enters times in it.
const TIME_ZONE_COOKIE = 'upstate-time-zone';
export const rememberedTimeZone = (cookies: Cookies) =>
	canonicalTimeZone(cookies.get(TIME_ZONE_COOKIE));
export function rememberTimeZone(cookies: Cookies, zone: string): void {
	cookies.set(TIME_ZONE_COOKIE, zone, {
		path: '/',
		maxAge: 60 * 60 * 24 * 365,
		sameSite: 'lax',
		secure: getUpstate().config.urls.dashboard.startsWith('https:')
	});
}
