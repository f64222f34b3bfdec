import type { Prisma } from '@prisma/client';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { monitorInclude, toMonitorOutput } from './internal.ts';
import {
	ListMonitorsInput,
	SearchMonitorsInput,
	type MonitorListOutput,
	type MonitorTagsOutput
} from './schemas.ts';
import { paginate } from '../paginate.ts';

// Newest first (spec 4.1 list_monitors), with activeIncidentCount.
export async function listMonitors(args: {
	ctx: ServiceContext;
	input?: ListMonitorsInput;
}): Promise<MonitorListOutput> {
	requireScope(args.ctx, 'read');
	return findMonitors(args.ctx, parseInput(ListMonitorsInput, args.input), {});
}

// The dashboard's list with search and filters; the same pages and rows as listMonitors.
export async function searchMonitors(args: {
	ctx: ServiceContext;
	input: SearchMonitorsInput;
}): Promise<MonitorListOutput> {
	requireScope(args.ctx, 'read');
	const { page, perPage, search, state, type, tag } = parseInput(SearchMonitorsInput, args.input);
	const where: Prisma.MonitorWhereInput = {};
	if (search)
		where.OR = [
			{ name: { contains: search } },
			{ url: { contains: search } },
			{ uri: { contains: search } }
		];
	if (state === 'paused') where.active = false;
	else if (state) Object.assign(where, { active: true, status: state });
	if (type) where.type = type;
	// Tags are a JSON array in one column: match an element exactly (json_each), not a substring.
	if (tag) {
		const rows = await args.ctx.db.$queryRaw<{ id: number | bigint }[]>`SELECT m.id FROM monitor m
			WHERE m.workspace_id = ${args.ctx.workspace.id}
			AND EXISTS (SELECT 1 FROM json_each(m.tags) t WHERE t.value = ${tag})`;
		where.id = { in: rows.map((r) => Number(r.id)) };
	}
	return findMonitors(args.ctx, { page, perPage }, where);
}

async function findMonitors(
	ctx: ServiceContext,
	{ page, perPage }: { page: number; perPage: number },
	filters: Prisma.MonitorWhereInput
): Promise<MonitorListOutput> {
	const where = { ...filters, workspaceId: ctx.workspace.id };
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.monitor.findMany({
				where,
				include: monitorInclude,
				orderBy: { id: 'desc' },
				...window
			}),
		count: () => ctx.db.monitor.count({ where })
	});
	return { data: rows.map(toMonitorOutput), pagination };
}

// Every tag used in the workspace, each once, sorted (the list's tag filter).
export async function listMonitorTags(args: { ctx: ServiceContext }): Promise<MonitorTagsOutput> {
	requireScope(args.ctx, 'read');
	const rows = await args.ctx.db.$queryRaw<{ tag: string }[]>`SELECT DISTINCT t.value AS tag
		FROM monitor m, json_each(m.tags) t
		WHERE m.workspace_id = ${args.ctx.workspace.id} ORDER BY tag`;
	return { tags: rows.map((r) => r.tag) };
}
