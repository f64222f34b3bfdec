import type { Impact } from './component-state.ts';

export const UPTIME_DAYS = 90;
const DAY_MS = 86_400_000;

export type DayColor = 'operational' | 'degraded' | 'partial' | 'major' | 'maintenance' | 'empty';
export type DayCounts = { success: number; degraded: number; error: number };
export type DayEvent =
	| {
			kind: 'report';
			id: number;
			title: string;
			impact: Impact | null;
			from: Date;
			to: Date | null;
	  }
	| { kind: 'maintenance'; id: number; title: string; from: Date; to: Date }
	| { kind: 'incident'; from: Date; to: Date | null };
export type UptimeDay = {
	day: string; // YYYY-MM-DD, UTC
	uptime: number | null; // percent, two decimals; null without checks
	checks: number;
	failed: number;
	color: DayColor;
	reports: { id: number; title: string }[];
	maintenances: { id: number; title: string }[];
};

// The UTC days of the bar, oldest first, ending today. The last window is kept: every render
// of a day asks for the same one.
let lastWindow = { key: '', days: [] as string[] };
export function uptimeWindow(now: Date, days = UPTIME_DAYS): string[] {
	const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
	const key = `${today}/${days}`;
	if (lastWindow.key !== key) {
		const list = Array.from({ length: days }, (_, i) =>
			new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10)
		);
		lastWindow = { key, days: list };
	}
	return [...lastWindow.days];
}

const overlaps = (day: string, from: Date, to: Date | null, now: Date) => {
	const start = Date.parse(`${day}T00:00:00Z`);
	return from.getTime() < start + DAY_MS && (to ?? now).getTime() >= start;
};

const RANK: Record<DayColor, number> = {
	empty: 0,
	operational: 1,
	maintenance: 2,
	degraded: 3,
	partial: 4,
	major: 5
};
const IMPACT_COLOR: Record<Impact, DayColor> = {
	operational: 'operational',
	degraded_performance: 'degraded',
	partial_outage: 'partial',
	major_outage: 'major'
};

/**
 * One cell per UTC day for a monitor component:
 * - uptime % = (success + degraded) / all checks of the day (slow checks still count as up);
 * - colour = the worst of the day's report impacts on the component (major/partial/degraded) and
 *   open monitor incidents (an incident is a major outage of its monitor);
 * - with neither: a maintenance window that day → maintenance; no checks → empty; any failed
 *   check → degraded; otherwise operational.
 */
export function buildUptimeDays(args: {
	days: string[];
	counts: Map<string, DayCounts>;
	events: DayEvent[];
	now: Date;
}): UptimeDay[] {
	const { counts, events, now } = args;
	// One pass per cell without intermediate arrays: a page builds 1,800 of them per render.
	return args.days.map((day) => {
		const c = counts.get(day) ?? NO_CHECKS;
		const checks = c.success + c.degraded + c.error;
		const reports: UptimeDay['reports'] = [];
		const maintenances: UptimeDay['maintenances'] = [];
		let color: DayColor = 'empty';
		for (const e of events) {
			if (!overlaps(day, e.from, e.to, now)) continue;
			if (e.kind === 'report') reports.push({ id: e.id, title: e.title });
			if (e.kind === 'maintenance') maintenances.push({ id: e.id, title: e.title });
			const candidate: DayColor =
				e.kind === 'incident'
					? 'major'
					: e.kind === 'report' && e.impact
						? IMPACT_COLOR[e.impact]
						: 'empty';
			if (RANK[candidate] > RANK[color]) color = candidate;
		}
		if (color === 'empty' || color === 'operational') {
			if (maintenances.length > 0) color = 'maintenance';
			else if (checks === 0) color = color === 'operational' ? 'operational' : 'empty';
			else color = c.error > 0 ? 'degraded' : 'operational';
		}
		return {
			day,
			uptime: checks === 0 ? null : Math.round(((c.success + c.degraded) / checks) * 10_000) / 100,
			checks,
			failed: c.error,
			color,
			reports,
			maintenances
		};
	});
}

const NO_CHECKS: DayCounts = { success: 0, degraded: 0, error: 0 };
