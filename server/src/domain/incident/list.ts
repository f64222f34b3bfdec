import type { Prisma } from '@prisma/client';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { incidentInclude, toIncidentOutputs } from './internal.ts';
import { ListIncidentsInput, type IncidentListOutput } from './schemas.ts';

// Newest first; `filter: open` leaves out resolved incidents.
export async function listIncidents(args: {
	ctx: ServiceContext;
	input?: ListIncidentsInput;
}): Promise<IncidentListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { filter, monitorId, page, perPage } = parseInput(ListIncidentsInput, args.input);
	const where: Prisma.IncidentWhereInput = {
		workspaceId: ctx.workspace.id,
		...(filter === 'open' ? { resolvedAt: null } : {}),
		...(monitorId ? { monitorId } : {})
	};
	const [rows, totalSize] = await Promise.all([
		ctx.db.incident.findMany({
			where,
			include: incidentInclude,
			orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
			skip: (page - 1) * perPage,
			take: perPage
		}),
		ctx.db.incident.count({ where })
	]);
	return {
		data: await toIncidentOutputs(ctx.db, rows),
		pagination: { page, perPage, totalSize, totalPages: Math.ceil(totalSize / perPage) }
	};
}
