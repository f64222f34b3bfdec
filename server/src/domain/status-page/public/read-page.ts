import type { Db } from '../../../db/client.ts';
import {
	PAGE_COLUMNS,
	pageNotFound,
	publishedPage,
	toOpenedPage,
	type OpenedPage,
	type PageRow
} from './open-page.ts';
import type { PageLocator } from './schemas.ts';

// What the public page is built from, read with the page itself in one raw SQL round trip: each
// list comes back as a JSON array from a scalar subquery. Prisma compiles every model query
// anew (~0.65 ms each, six of them per render before); this one query costs about 0.6 ms.
export type PageComponentRow = {
	id: number;
	name: string;
	description: string;
	type: string;
	order: number;
	monitorId: number | null;
	monitorStatus: string | null;
	groupId: number | null;
	groupOrder: number;
};
export type ReportRow = {
	id: number;
	title: string;
	status: string;
	createdAt: Date;
	resolvedAt: Date | null;
	components: { componentId: number; component: { name: string } }[];
	// Newest first.
	updates: {
		id: number;
		status: string;
		message: string;
		date: Date;
		impacts: { componentId: number; impact: string }[];
	}[];
};
export type MaintenanceRow = {
	id: number;
	title: string;
	message: string;
	from: Date;
	to: Date;
	components: { componentId: number; component: { name: string } }[];
};
export type IncidentRow = { monitorId: number; startedAt: Date; resolvedAt: Date | null };
export type PageRows = {
	components: PageComponentRow[]; // by `order`, then id
	groups: { id: number; name: string }[];
	reports: ReportRow[]; // open, or resolved since `since`; newest first
	maintenances: MaintenanceRow[]; // ending since `since`; soonest first
	incidents: IncidentRow[]; // of the page's monitors, outside maintenance, open or resolved since `since`
};

type RawLists = Record<keyof PageRows, string>;

/**
 * The published page a locator names, and its components (with their monitor's status),
 * groups, reports, maintenance windows and monitor incidents. Every list is scoped by the page
 * (incidents also by its workspace, which lets them use the workspace/monitor index). Dates
 * compare as Prisma stores them (ISO text), with `since` bound the way Prisma binds a Date.
 * The caller runs the access gate before showing any of it.
 */
export async function readPublicPage(args: {
	db: Db;
	locator: PageLocator;
	since: Date;
}): Promise<{ opened: OpenedPage; rows: PageRows }> {
	const { db, locator, since } = args;
	const [found] = await db.$queryRaw<(PageRow & RawLists)[]>`SELECT ${PAGE_COLUMNS},
		(SELECT json_group_array(json_object('id', c.id, 'name', c.name, 'description', c.description,
			'type', c.type, 'order', c."order", 'monitorId', c.monitor_id, 'monitorStatus', m.status,
			'groupId', c.group_id, 'groupOrder', c.group_order))
			FROM page_component c LEFT JOIN monitor m ON m.id = c.monitor_id
			WHERE c.page_id = p.id) AS components,
		(SELECT json_group_array(json_object('id', g.id, 'name', g.name))
			FROM component_group g WHERE g.page_id = p.id) AS groups,
		(SELECT json_group_array(json_object('id', r.id, 'title', r.title, 'status', r.status,
			'createdAt', r.created_at, 'resolvedAt', r.resolved_at,
			'components', json((SELECT json_group_array(json_object('componentId', rc.component_id,
				'component', json_object('name', rc_c.name)))
				FROM status_report_component rc JOIN page_component rc_c ON rc_c.id = rc.component_id
				WHERE rc.report_id = r.id)),
			'updates', json((SELECT json_group_array(json_object('id', u.id, 'status', u.status,
				'message', u.message, 'date', u.date,
				'impacts', json((SELECT json_group_array(json_object('componentId', i.component_id,
					'impact', i.impact))
					FROM status_report_update_impact i WHERE i.update_id = u.id))))
				FROM status_report_update u WHERE u.report_id = r.id))))
			FROM status_report r
			WHERE r.page_id = p.id AND (r.resolved_at IS NULL OR r.resolved_at >= ${since})
		) AS reports,
		(SELECT json_group_array(json_object('id', mt.id, 'title', mt.title, 'message', mt.message,
			'from', mt."from", 'to', mt."to",
			'components', json((SELECT json_group_array(json_object('componentId', mc.component_id,
				'component', json_object('name', mc_c.name)))
				FROM maintenance_component mc JOIN page_component mc_c ON mc_c.id = mc.component_id
				WHERE mc.maintenance_id = mt.id))))
			FROM maintenance mt WHERE mt.page_id = p.id AND mt."to" >= ${since}) AS maintenances,
		(SELECT json_group_array(json_object('monitorId', x.monitor_id, 'startedAt', x.started_at,
			'resolvedAt', x.resolved_at))
			FROM incident x
			WHERE x.workspace_id = p.workspace_id
				AND x.monitor_id IN (SELECT monitor_id FROM page_component WHERE page_id = p.id)
				AND x.during_maintenance = false
				AND (x.resolved_at IS NULL OR x.resolved_at >= ${since})) AS incidents
		FROM status_page p JOIN workspace w ON w.id = p.workspace_id
		WHERE ${publishedPage(locator)} LIMIT 1`;
	if (!found) throw pageNotFound(locator);
	const { components, groups, reports, maintenances, incidents, ...page } = found;
	return {
		opened: toOpenedPage(page, locator),
		rows: toPageRows({ components, groups, reports, maintenances, incidents })
	};
}

// JSON carries dates as the stored text. Order is applied here rather than trusted to the order
// SQLite feeds an aggregate; ties go by id ascending, as the Prisma queries this replaced did.
function toPageRows(raw: RawLists): PageRows {
	const components: PageComponentRow[] = JSON.parse(raw.components);
	components.sort((a, b) => a.order - b.order || a.id - b.id);
	const reports: ReportRow[] = JSON.parse(raw.reports, reviveDates);
	for (const r of reports) {
		r.updates.sort((a, b) => b.date.getTime() - a.date.getTime() || b.id - a.id);
		r.components.sort(byComponent);
	}
	reports.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id - b.id);
	const maintenances: MaintenanceRow[] = JSON.parse(raw.maintenances, reviveDates);
	for (const m of maintenances) m.components.sort(byComponent);
	maintenances.sort((a, b) => a.from.getTime() - b.from.getTime() || a.id - b.id);
	return {
		components,
		groups: JSON.parse(raw.groups),
		reports,
		maintenances,
		incidents: JSON.parse(raw.incidents, reviveDates)
	};
}

// Components named by a report or window, in key order as Prisma's include returned them.
const byComponent = (a: { componentId: number }, b: { componentId: number }) =>
	a.componentId - b.componentId;

const DATE_KEYS = new Set(['createdAt', 'resolvedAt', 'date', 'from', 'to', 'startedAt']);

// Prisma writes `2026-11-22T12:00:00.000+00:00`; a bare SQL default (`2026-11-22 12:00:00`) is
// UTC too, which Date.parse would take for local time.
function reviveDates(key: string, value: unknown): unknown {
	if (!DATE_KEYS.has(key) || value === null) return value;
	if (typeof value === 'number') return new Date(value);
	const text = String(value);
	return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}
