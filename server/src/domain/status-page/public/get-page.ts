import { parseInput } from '../../parse.ts';
import {
	componentState,
	overallBanner,
	type ComponentState,
	type Impact,
	type MonitorStatus
} from './component-state.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import {
	isUnresolved,
	MAINTENANCE_INCLUDE,
	REPORT_INCLUDE,
	toPublicMaintenance,
	toPublicReport,
	type LoadedMaintenance,
	type LoadedReport
} from './reports.ts';
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
	const opened = await openPage({ deps: args.deps, locator: input.page, reader: input.reader });
	const { row, access, head, now } = opened;
	if (access !== 'granted') return { access, head, page: null };

	const db = args.deps.db;
	const days = uptimeWindow(now);
	const since = new Date(`${days[0]}T00:00:00Z`);
	const [components, groups, reports, maintenances] = await Promise.all([
		db.pageComponent.findMany({
			where: { pageId: row.id },
			include: { monitor: { select: { status: true } } },
			orderBy: [{ order: 'asc' }, { id: 'asc' }]
		}),
		db.componentGroup.findMany({ where: { pageId: row.id } }),
		db.statusReport.findMany({
			where: { pageId: row.id, OR: [{ resolvedAt: null }, { resolvedAt: { gte: since } }] },
			include: REPORT_INCLUDE,
			orderBy: { createdAt: 'desc' }
		}),
		db.maintenance.findMany({
			where: { pageId: row.id, to: { gte: since } },
			include: MAINTENANCE_INCLUDE,
			orderBy: { from: 'asc' }
		})
	]);
	const monitorIds = [...new Set(components.flatMap((c) => (c.monitorId ? [c.monitorId] : [])))];
	const [daily, incidents] = await Promise.all([
		args.deps.analytics.dailyStatus({ monitorIds, since: since.getTime() }),
		db.incident.findMany({
			// An incident opened during maintenance is the maintenance, not an outage, on the bar.
			where: {
				monitorId: { in: monitorIds },
				duringMaintenance: false,
				OR: [{ resolvedAt: null }, { resolvedAt: { gte: since } }]
			},
			select: { monitorId: true, startedAt: true, resolvedAt: true }
		})
	]);

	const toPublic = (c: (typeof components)[number]): PublicComponent => {
		const mine = maintenances.filter((m) => touchesMaintenance(m, c.id));
		const state = componentState({
			reportImpact: latestOpenImpact(reports, c.id),
			inMaintenance: mine.some((m) => m.from <= now && now < m.to),
			monitorStatus: c.monitorId ? ((c.monitor?.status ?? 'unknown') as MonitorStatus) : null
		});
		let uptime: PublicComponent['uptime'] = null;
		if (c.monitorId !== null) {
			const counts = new Map<string, DayCounts>(
				daily.filter((d) => d.monitorId === c.monitorId).map((d) => [d.day, d])
			);
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
			homepage_url: row.homepageUrl,
			contact_url: row.contactUrl,
			banner: overallBanner(states),
			sections,
			active_reports: reports.filter(isUnresolved).map(toPublicReport),
			maintenances: maintenances.filter((m) => m.to > now).map((m) => toPublicMaintenance(m, now))
		}
	};
}

// A maintenance without components covers the whole page.
const touchesMaintenance = (m: LoadedMaintenance, componentId: number) =>
	m.components.length === 0 || m.components.some((c) => c.componentId === componentId);

const touchesReport = (r: LoadedReport, componentId: number) =>
	r.components.some((c) => c.componentId === componentId) ||
	r.updates.some((u) => u.impacts.some((i) => i.componentId === componentId));

// The latest impact naming the component among unresolved reports (updates are newest first).
function latestOpenImpact(reports: LoadedReport[], componentId: number): Impact | null {
	let latest: { date: Date; impact: Impact } | null = null;
	for (const r of reports.filter(isUnresolved)) {
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
function reportEvent(r: LoadedReport, componentId: number): DayEvent {
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
