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

// Every component of a page formats the same 90 days and a handful of uptime/count pairs: the
// strings are kept per locale (bounded; plain strings, no per-reader state), looked up by the
// day and by one number made of the counts, so a cell builds no lookup key.
type Labels = {
	m: ReturnType<typeof messagesFor>;
	dayFormat: Intl.DateTimeFormat;
	percent: Intl.NumberFormat;
	days: Map<string, string>;
	counts: Map<number, string>;
};
const byLocale = new Map<string, Labels>();
function labelsFor(locale: string): Labels {
	let labels = byLocale.get(locale);
	if (!labels) {
		if (byLocale.size > 100) byLocale.clear();
		labels = {
			m: messagesFor(locale),
			dayFormat: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
			percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
			days: new Map(),
			counts: new Map()
		};
		byLocale.set(locale, labels);
	}
	return labels;
}

function remember<K>(map: Map<K, string>, key: K, make: () => string): string {
	let label = map.get(key);
	if (label === undefined) {
		if (map.size > 5000) map.clear();
		label = make();
		map.set(key, label);
	}
	return label;
}

export const uptimeLabel = (locale: string, fraction: number) =>
	fill(messagesFor(locale).uptimeOf, { pct: labelsFor(locale).percent.format(fraction) });

// "Nov 3, 2026 · 99.5% uptime, 1440 checks, 7 failed · <report titles> · Maintenance: <title>"
export function describeDay(d: UptimeDay, locale: string): string {
	const l = labelsFor(locale);
	let text = remember(l.days, d.day, () => l.dayFormat.format(new Date(`${d.day}T00:00:00Z`)));
	const { uptime, checks, failed } = d;
	if (uptime === null) text += ` · ${l.m.noData}`;
	else
		text += remember(
			l.counts,
			// The uptime follows from the counts, so the pair is the key (as one number).
			checks * 2 ** 24 + failed,
			() => ` · ${uptimeLabel(locale, uptime / 100)}, ${fill(l.m.dayChecks, { checks, failed })}`
		);
	for (const r of d.reports) text += ` · ${r.title}`;
	for (const x of d.maintenances) text += ` · ${l.m.maintenance}: ${x.title}`;
	return text;
}

export function uptimeCellsHtml(days: UptimeDay[], locale: string): string {
	let html = '';
	for (const d of days)
		html += `<li><button class="${CELL[d.color]}"><span>${escapeText(describeDay(d, locale))}</span></button></li>`;
	return html;
}

// With scripts, each bar is one stop in the tab order (today's cell) and the arrow keys, Home
// and End move between its shown days (a roving tabindex; a narrow bar hides its oldest days),
// instead of 90 tab stops per component. If a resize hides the stop, it goes back to today.
// Without scripts every shown cell stays reachable with Tab.
export const UPTIME_BAR_KEYS_SCRIPT = `<script>{const bars=[...document.querySelectorAll('ol.ub')].map(ol=>{const b=[...ol.querySelectorAll('button')];b.forEach((x,i)=>x.tabIndex=i===b.length-1?0:-1);ol.addEventListener('keydown',e=>{const v=b.filter(x=>x.offsetWidth),i=v.indexOf(document.activeElement),j={ArrowLeft:i-1,ArrowRight:i+1,Home:0,End:v.length-1}[e.key];if(i<0||j===undefined||!v[j])return;e.preventDefault();v[i].tabIndex=-1;v[j].tabIndex=0;v[j].focus()});return b});addEventListener('resize',()=>{for(const b of bars){const s=b.find(x=>x.tabIndex===0);if(s&&!s.offsetWidth){s.tabIndex=-1;b[b.length-1].tabIndex=0}}})}</script>`;
