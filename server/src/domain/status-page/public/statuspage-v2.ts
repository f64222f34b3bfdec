import { parseInput } from '../../parse.ts';
import type { Banner, Impact } from './component-state.ts';
import { getPublicStatusPage } from './get-page.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import { pageUrl } from './page-url.ts';
import { MAINTENANCE_INCLUDE, REPORT_INCLUDE, type LoadedReport } from './reports.ts';
import { toMaintenance, type V2Ctx } from './statuspage-v2-maintenance.ts';
import {
	GetPublicPageInput,
	type PublicComponent,
	type StatuspageV2Component,
	type StatuspageV2Incident,
	type StatuspageV2Output,
	type StatuspageV2Result
} from './schemas.ts';

// Atlassian Statuspage's public v2 API (`/api/v2/summary.json` and friends), so aggregators and
// widgets written for it read Upstate pages. Ids are strings; groups and maintenance windows get
// a prefix (`g…`, `m…`) because Statuspage has one id space for each list. The lists are the
// latest 50 plus every unresolved report and every active or upcoming window, so the filtered
// files (summary, unresolved, upcoming, active) never lose one to the history cut.
const LIST_SIZE = 50;

const INDICATOR: Record<Banner, StatuspageV2Output['status']> = {
	operational: { indicator: 'none', description: 'All Systems Operational' },
	degraded_performance: { indicator: 'minor', description: 'Minor Service Outage' },
	partial_outage: { indicator: 'major', description: 'Partial System Outage' },
	major_outage: { indicator: 'critical', description: 'Major Service Outage' },
	under_maintenance: { indicator: 'maintenance', description: 'Service Under Maintenance' }
};
const IMPACT: Record<Impact, StatuspageV2Incident['impact']> = {
	operational: 'none',
	degraded_performance: 'minor',
	partial_outage: 'major',
	major_outage: 'critical'
};
const RANK = ['none', 'minor', 'major', 'critical'];

export async function getStatuspageV2(args: {
	deps: PublicDeps;
	input: GetPublicPageInput;
}): Promise<StatuspageV2Result> {
	const input = parseInput(GetPublicPageInput, args.input);
	const opened = await openPage({ deps: args.deps, locator: input.page, reader: input.reader });
	const { page } = await getPublicStatusPage({ deps: args.deps, input });
	if (opened.access !== 'granted' || !page)
		return { access: opened.access, head: opened.head, v2: null };
	const { row, now } = opened;
	const url = pageUrl(args.deps.statusPageUrl, opened);
	const pageId = String(row.id);
	const db = args.deps.db;
	const reportOrder = [{ createdAt: 'desc' }, { id: 'desc' }] as const;
	const windowOrder = [{ from: 'desc' }, { id: 'desc' }] as const;
	const [rows, groups, recentReports, openReports, recentWindows, currentWindows] =
		await Promise.all([
			db.pageComponent.findMany({ where: { pageId: row.id } }),
			db.componentGroup.findMany({ where: { pageId: row.id } }),
			db.statusReport.findMany({
				where: { pageId: row.id },
				include: REPORT_INCLUDE,
				orderBy: [...reportOrder],
				take: LIST_SIZE
			}),
			db.statusReport.findMany({
				where: { pageId: row.id, resolvedAt: null, status: { not: 'resolved' } },
				include: REPORT_INCLUDE,
				orderBy: [...reportOrder]
			}),
			db.maintenance.findMany({
				where: { pageId: row.id },
				include: MAINTENANCE_INCLUDE,
				orderBy: [...windowOrder],
				take: LIST_SIZE
			}),
			db.maintenance.findMany({
				where: { pageId: row.id, to: { gt: now } },
				include: MAINTENANCE_INCLUDE,
				orderBy: [...windowOrder]
			})
		]);
	const reports = unionBy(recentReports, openReports, (a, b) =>
		a.createdAt.getTime() === b.createdAt.getTime()
			? b.id - a.id
			: b.createdAt.getTime() - a.createdAt.getTime()
	);
	const maintenances = unionBy(recentWindows, currentWindows, (a, b) =>
		a.from.getTime() === b.from.getTime() ? b.id - a.id : b.from.getTime() - a.from.getTime()
	);
	const stamp = (d: Date) => d.toISOString();
	const byId = new Map(rows.map((c) => [c.id, c]));
	const component = (c: PublicComponent, position: number, groupId: number | null) => {
		const stored = byId.get(c.id);
		return {
			id: String(c.id),
			name: c.name,
			// Statuspage has no "no data yet": such a component counts as operational, as on the banner.
			status: c.state === 'unknown' ? 'operational' : c.state,
			created_at: stamp(stored?.createdAt ?? row.createdAt),
			updated_at: stamp(stored?.updatedAt ?? row.updatedAt),
			position,
			description: c.description || null,
			showcase: true,
			start_date: null,
			group_id: groupId === null ? null : `g${groupId}`,
			page_id: pageId,
			group: false,
			only_show_if_degraded: false
		} satisfies StatuspageV2Component;
	};
	const components: StatuspageV2Component[] = [];
	page.sections.forEach((s, i) => {
		if (s.kind === 'component') return components.push(component(s.component, i + 1, null));
		const group = groups.find((g) => g.id === s.id);
		components.push({
			...component(
				{ id: s.id, name: s.name, description: '', type: 'static', state: s.state, uptime: null },
				i + 1,
				null
			),
			id: `g${s.id}`,
			created_at: stamp(group?.createdAt ?? row.createdAt),
			updated_at: stamp(group?.updatedAt ?? row.updatedAt),
			group: true,
			components: s.components.map((m) => String(m.id))
		});
		s.components.forEach((m, j) => components.push(component(m, j + 1, s.id)));
	});
	const componentById = new Map(components.map((c) => [c.id, c]));
	const named = (ids: number[]) =>
		ids.flatMap((id) => componentById.get(String(id)) ?? []).map((c) => ({ ...c }));
	const leaves = components.filter((c) => !c.group).map((c) => Number(c.id));

	const incidents = reports.map((r) => toIncident(r, { url, pageId, named }));
	const scheduled = maintenances.map((m) =>
		toMaintenance(m, { url, pageId, now, named, allComponentIds: leaves })
	);
	const updatedAt = [
		row.updatedAt,
		...rows.map((c) => c.updatedAt),
		...reports.map((r) => r.updatedAt)
	]
		.concat(maintenances.map((m) => m.updatedAt))
		.reduce((a, b) => (a > b ? a : b));
	const v2: StatuspageV2Output = {
		page: { id: pageId, name: row.title, url, time_zone: 'Etc/UTC', updated_at: stamp(updatedAt) },
		status: INDICATOR[page.banner],
		components,
		incidents,
		scheduled_maintenances: scheduled
	};
	return { access: opened.access, head: opened.head, v2 };
}

function toIncident(r: LoadedReport, ctx: V2Ctx): StatuspageV2Incident {
	let impact: StatuspageV2Incident['impact'] = 'none';
	// Updates are newest first: an update's old status is the impact the next older one gave.
	const updates = r.updates.map((u, i) => {
		const older = r.updates.slice(i + 1);
		const affected = u.impacts.map((imp) => {
			const rank = IMPACT[imp.impact as Impact];
			if (RANK.indexOf(rank) > RANK.indexOf(impact)) impact = rank;
			const before = older
				.flatMap((o) => o.impacts)
				.find((o) => o.componentId === imp.componentId)?.impact;
			return {
				code: String(imp.componentId),
				name: ctx.named([imp.componentId])[0]?.name ?? '',
				old_status: before ?? 'operational',
				new_status: imp.impact
			};
		});
		return {
			id: String(u.id),
			status: u.status,
			body: u.message,
			incident_id: String(r.id),
			created_at: u.createdAt.toISOString(),
			updated_at: u.createdAt.toISOString(),
			display_at: u.date.toISOString(),
			affected_components: affected.length > 0 ? affected : null,
			deliver_notifications: u.notify,
			custom_tweet: null,
			tweet_id: null
		};
	});
	const monitoring = [...r.updates].reverse().find((u) => u.status === 'monitoring');
	const ids = [
		...new Set([
			...r.components.map((c) => c.componentId),
			...r.updates.flatMap((u) => u.impacts.map((i) => i.componentId))
		])
	];
	return {
		id: String(r.id),
		name: r.title,
		status: r.status,
		created_at: r.createdAt.toISOString(),
		updated_at: r.updatedAt.toISOString(),
		monitoring_at: monitoring?.date.toISOString() ?? null,
		resolved_at: r.resolvedAt?.toISOString() ?? null,
		impact,
		shortlink: `${ctx.url}/reports/${r.id}`,
		started_at: r.createdAt.toISOString(),
		page_id: ctx.pageId,
		incident_updates: updates,
		components: ctx.named(ids)
	};
}

// Both lists by id, in the given order (each query already holds its rows once).
function unionBy<T extends { id: number }>(a: T[], b: T[], order: (x: T, y: T) => number): T[] {
	const byId = new Map([...a, ...b].map((x) => [x.id, x]));
	return [...byId.values()].sort(order);
}
