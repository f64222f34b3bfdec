import { ServiceError } from '@upstate/server';

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

// A <input type="datetime-local"> value, read as UTC (the form says so), as ISO 8601.
export function utc(value: string | undefined, path: string): string {
	if (value && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value))
		return new Date(`${value.length === 16 ? `${value}:00` : value}Z`).toISOString();
	const message = 'enter a date and time';
	throw new ServiceError('VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });
}

// datetime-local wants "YYYY-MM-DDTHH:mm" in the same (UTC) clock.
export const toLocalInput = (iso: string) => iso.slice(0, 16);
