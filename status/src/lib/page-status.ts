// Colours of the public page's states (tokens only, STYLE 41); words live in `i18n/`.
export type ComponentState =
	| 'operational'
	| 'degraded_performance'
	| 'partial_outage'
	| 'major_outage'
	| 'under_maintenance'
	| 'unknown';
export type DayColor = 'operational' | 'degraded' | 'partial' | 'major' | 'maintenance' | 'empty';

export type UptimeDay = {
	day: string; // YYYY-MM-DD, UTC
	uptime: number | null; // percent; null without checks
	checks: number;
	failed: number;
	color: DayColor;
	reports: { id: number; title: string }[];
	maintenances: { id: number; title: string }[];
};

export type PublicComponent = {
	id: number;
	name: string;
	description: string;
	state: ComponentState;
	uptime: UptimeDay[] | null;
};

export const STATE_CLASS: Record<ComponentState, string> = {
	operational: 'bg-status-operational',
	degraded_performance: 'bg-status-degraded',
	partial_outage: 'bg-status-partial',
	major_outage: 'bg-status-outage',
	under_maintenance: 'bg-status-maintenance',
	unknown: 'bg-status-unknown'
};

// A page's theme as one style block: light values on :root, dark ones under
// prefers-color-scheme. Values were filtered by the server verb; `<` is dropped again here so
// nothing can close the style element whatever reaches this function.
export function themeCss(theme: { light: Record<string, string>; dark: Record<string, string> }) {
	const block = (vars: Record<string, string>) =>
		Object.entries(vars)
			.map(([k, v]) => `${k}:${v}`.replace(/[<>]/g, ''))
			.join(';');
	const light = block(theme.light);
	const dark = block(theme.dark);
	return (
		(light ? `:root:root{${light}}` : '') +
		(dark ? `@media (prefers-color-scheme: dark){:root:root{${dark}}}` : '')
	);
}

export function formatDateTime(iso: string, locale: string): string {
	return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
}
