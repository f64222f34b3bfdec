import { fill, messagesFor } from './i18n/index.ts';
import type { DayColor, UptimeDay } from './page-status.ts';

// The 90 cells of an uptime bar as one HTML string. A page has 90 per component (1,800 for 20),
// so this loop is the hottest markup of the status site: built here in one pass and placed with
// {@html} by UptimeBar.svelte (the component's per-element SSR cost was most of a page render).
// Each cell is a button (keyboards and taps reach it) whose text describes the day; CSS shows it
// as a tooltip on hover, focus or tap. Its look is a one-letter colour class.
const CELL: Record<DayColor, string> = {
	operational: 'o',
	degraded: 'd',
	partial: 'p',
	major: 'x',
	maintenance: 'm',
	empty: 'e'
};

// Text content: `&` and `<` are all that must be escaped (`>` too, for readers of the source).
const ESCAPE: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const escapeText = (s: string) => (/[&<>]/.test(s) ? s.replace(/[&<>]/g, (c) => ESCAPE[c]) : s);

// Every component of a page formats the same 90 days and a handful of percentages: the strings
// are memoised per locale (bounded; plain strings, no per-reader state).
const labels = new Map<string, string>();
function memo(key: string, make: () => string): string {
	let label = labels.get(key);
	if (label === undefined) {
		if (labels.size > 5000) labels.clear();
		label = make();
		labels.set(key, label);
	}
	return label;
}

const formats = new Map<string, { day: Intl.DateTimeFormat; percent: Intl.NumberFormat }>();
function formatsFor(locale: string) {
	let f = formats.get(locale);
	if (!f) {
		f = {
			day: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
			percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 })
		};
		formats.set(locale, f);
	}
	return f;
}

export const uptimeLabel = (locale: string, fraction: number) =>
	fill(messagesFor(locale).uptimeOf, { pct: formatsFor(locale).percent.format(fraction) });

// "Nov 3, 2026 · 99.5% uptime, 1,440 checks, 7 failed · <report titles> · Maintenance: <title>"
export function describeDay(d: UptimeDay, locale: string): string {
	const m = messagesFor(locale);
	let text = memo(`d:${locale}:${d.day}`, () =>
		formatsFor(locale).day.format(new Date(`${d.day}T00:00:00Z`))
	);
	text +=
		d.uptime === null
			? ` · ${m.noData}`
			: ` · ${memo(`p:${locale}:${d.uptime}`, () => uptimeLabel(locale, (d.uptime ?? 0) / 100))}, ${memo(`c:${locale}:${d.checks}:${d.failed}`, () => fill(m.dayChecks, { checks: d.checks, failed: d.failed }))}`;
	for (const r of d.reports) text += ` · ${r.title}`;
	for (const x of d.maintenances) text += ` · ${m.maintenance}: ${x.title}`;
	return text;
}

export function uptimeCellsHtml(days: UptimeDay[], locale: string): string {
	let html = '';
	for (const d of days)
		html += `<li><button class="${CELL[d.color]}"><span>${escapeText(describeDay(d, locale))}</span></button></li>`;
	return html;
}
