import type { Prisma } from '@prisma/client';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { maintenanceInclude, toMaintenanceOutput } from './internal.ts';
import { ListMaintenancesInput, type MaintenanceListOutput } from './schemas.ts';
import { paginate } from '../paginate.ts';

// Newest first (by creation), with the same pagination object as list_status_reports.
export async function listMaintenances(args: {
	ctx: ServiceContext;
	input?: ListMaintenancesInput;
}): Promise<MaintenanceListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { pageId, page, perPage } = parseInput(ListMaintenancesInput, args.input);
	// Another workspace's page is NOT_FOUND, not an empty list (spec 4.1 rule 6).
	if (pageId !== undefined)
		await getStatusPageInWorkspace({ tx: ctx.db, id: pageId, workspaceId: ctx.workspace.id });
	const where: Prisma.MaintenanceWhereInput = {
		workspaceId: ctx.workspace.id,
		...(pageId !== undefined && { pageId })
	};
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.maintenance.findMany({
				where,
				include: maintenanceInclude,
				orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
				...window
			}),
		count: () => ctx.db.maintenance.count({ where })
	});
	return { data: rows.map(toMaintenanceOutput), pagination };
}
