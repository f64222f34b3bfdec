import type { Prisma } from '@prisma/client';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { incidentInclude, toIncidentOutputs } from './internal.ts';
import { ListIncidentsInput, type IncidentListOutput } from './schemas.ts';
import { paginate } from '../paginate.ts';

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
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.incident.findMany({
				where,
				include: incidentInclude,
				orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
				...window
			}),
		count: () => ctx.db.incident.count({ where })
	});
	return { data: await toIncidentOutputs(ctx.db, rows), pagination };
}
