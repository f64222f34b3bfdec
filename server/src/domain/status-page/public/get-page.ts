import { parseInput } from '../../parse.ts';
import {
	componentState,
	overallBanner,
	type ComponentState,
	type Impact,
	type MonitorStatus
} from './component-state.ts';
import { admit, type PublicDeps } from './open-page.ts';
import { readPublicPage, type MaintenanceRow, type ReportRow } from './read-page.ts';
import { isUnresolved, toPublicMaintenance, toPublicReport } from './reports.ts';
import { safeContactUrl, safeUrl } from './safe-url.ts';
import {
	GetPublicPageInput,
	type PublicComponent,
	type PublicPageOutput,
	type PublicSection
} from './schemas.ts';
import { buildUptimeDays, uptimeWindow, type DayCounts, type DayEvent } from './uptime.ts';

const IMPACT_RANK: Record<Impact, number> = {
	operational: 0,
	degraded_performance: 1,
	partial_outage: 2,
	major_outage: 3
};

// The public page: header, banner, components with state and 90-day bars, open reports and
// maintenance. The access gate runs first; a gated reader gets the head only.
export async function getPublicStatusPage(args: {
	deps: PublicDeps;
	input: GetPublicPageInput;
}): Promise<PublicPageOutput> {
	const input = parseInput(GetPublicPageInput, args.input);
	const now = args.deps.now?.() ?? new Date();
	const days = uptimeWindow(now);
	const since = new Date(`${days[0]}T00:00:00Z`);
	// The page and all it shows in one round trip; the gate decides what the reader gets.
	const { opened, rows } = await readPublicPage({ db: args.deps.db, locator: input.page, since });
	const { access, head } = admit({ deps: args.deps, opened, reader: input.reader, now });
	if (access !== 'granted') return { access, head, page: null };

	const { row } = opened;
	const { components, groups, reports, maintenances, incidents } = rows;
	const monitorIds = [...new Set(components.flatMap((c) => (c.monitorId ? [c.monitorId] : [])))];
	const daily = await args.deps.analytics.dailyStatus({ monitorIds, since: since.getTime() });
	const countsOf = new Map<number, Map<string, DayCounts>>();
	for (const d of daily) {
		const counts = countsOf.get(d.monitorId) ?? new Map<string, DayCounts>();
		countsOf.set(d.monitorId, counts.set(d.day, d));
	}
	const openReports = reports.filter(isUnresolved);

	const toPublic = (c: (typeof components)[number]): PublicComponent => {
		const mine = maintenances.filter((m) => touchesMaintenance(m, c.id));
		const state = componentState({
			reportImpact: latestOpenImpact(openReports, c.id),
			inMaintenance: mine.some((m) => m.from <= now && now < m.to),
			monitorStatus: c.monitorId ? ((c.monitorStatus ?? 'unknown') as MonitorStatus) : null
		});
		let uptime: PublicComponent['uptime'] = null;
		if (c.monitorId !== null) {
			const counts = countsOf.get(c.monitorId) ?? new Map<string, DayCounts>();
			const events: DayEvent[] = [
				...reports.filter((r) => touchesReport(r, c.id)).map((r) => reportEvent(r, c.id)),
				...mine.map((m) => ({ kind: 'maintenance' as const, ...m })),
				...incidents
					.filter((i) => i.monitorId === c.monitorId)
					.map((i) => ({ kind: 'incident' as const, from: i.startedAt, to: i.resolvedAt }))
			];
			uptime = buildUptimeDays({ days, counts, events, now });
		}
		return {
			id: c.id,
			name: c.name,
			description: c.description,
			type: c.type === 'monitor' ? 'monitor' : 'static',
			state,
			uptime
		};
	};

	// Top-level entries in `order`: a lone component, or a group with its members in `group_order`.
	const sections: PublicSection[] = [];
	const seen = new Set<number>();
	for (const c of components) {
		if (c.groupId === null) {
			sections.push({ kind: 'component', component: toPublic(c) });
			continue;
		}
		if (seen.has(c.groupId)) continue;
		seen.add(c.groupId);
		const members = components
			.filter((m) => m.groupId === c.groupId)
			.sort((a, b) => a.groupOrder - b.groupOrder || a.id - b.id)
			.map(toPublic);
		sections.push({
			kind: 'group',
			id: c.groupId,
			name: groups.find((g) => g.id === c.groupId)?.name ?? '',
			state: overallBanner(members.map((m) => m.state)),
			components: members
		});
	}
	const states: ComponentState[] = sections.flatMap((s) =>
		s.kind === 'group' ? s.components.map((m) => m.state) : [s.component.state]
	);
	return {
		access,
		head,
		page: {
			description: row.description,
			homepage_url: safeUrl(row.homepageUrl),
			contact_url: safeContactUrl(row.contactUrl),
			banner: overallBanner(states),
			sections,
			active_reports: openReports.map(toPublicReport),
			maintenances: maintenances.filter((m) => m.to > now).map((m) => toPublicMaintenance(m, now))
		}
	};
}

// A maintenance without components covers the whole page.
const touchesMaintenance = (m: MaintenanceRow, componentId: number) =>
	m.components.length === 0 || m.components.some((c) => c.componentId === componentId);

const touchesReport = (r: ReportRow, componentId: number) =>
	r.components.some((c) => c.componentId === componentId) ||
	r.updates.some((u) => u.impacts.some((i) => i.componentId === componentId));

// The latest impact naming the component among unresolved reports (updates are newest first).
function latestOpenImpact(openReports: ReportRow[], componentId: number): Impact | null {
	let latest: { date: Date; impact: Impact } | null = null;
	for (const r of openReports) {
		for (const u of r.updates) {
			const hit = u.impacts.find((i) => i.componentId === componentId);
			if (hit && (!latest || u.date > latest.date))
				latest = { date: u.date, impact: hit.impact as Impact };
			if (hit) break;
		}
	}
	return latest?.impact ?? null;
}

// On the bar a report weighs with the worst impact it ever gave the component.
function reportEvent(r: ReportRow, componentId: number): DayEvent {
	let impact: Impact | null = null;
	for (const u of r.updates) {
		for (const i of u.impacts) {
			const candidate = i.impact as Impact;
			if (
				i.componentId === componentId &&
				(!impact || IMPACT_RANK[candidate] > IMPACT_RANK[impact])
			)
				impact = candidate;
		}
	}
	return { kind: 'report', id: r.id, title: r.title, impact, from: r.createdAt, to: r.resolvedAt };
}
