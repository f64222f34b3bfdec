import type { Prisma } from '@prisma/client';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { reportInclude, toReportOutput } from './internal.ts';
import { ListStatusReportsInput, type StatusReportListOutput } from './schemas.ts';
import { paginate } from '../paginate.ts';

// Newest first; `active` (the default) leaves resolved reports out (spec 4.1, 8).
export async function listStatusReports(args: {
	ctx: ServiceContext;
	input?: ListStatusReportsInput;
}): Promise<StatusReportListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { pageId, filter, page, perPage } = parseInput(ListStatusReportsInput, args.input);
	// Another workspace's page is NOT_FOUND, not an empty list (spec 4.1 rule 6).
	if (pageId !== undefined)
		await getStatusPageInWorkspace({ tx: ctx.db, id: pageId, workspaceId: ctx.workspace.id });
	const where: Prisma.StatusReportWhereInput = {
		workspaceId: ctx.workspace.id,
		...(pageId !== undefined && { pageId }),
		...(filter === 'active' && { status: { not: 'resolved' } })
	};
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.statusReport.findMany({
				where,
				include: reportInclude,
				orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
				...window
			}),
		count: () => ctx.db.statusReport.count({ where })
	});
	return { data: rows.map(toReportOutput), pagination };
}
