import { requireScope, type ServiceContext } from '../context.ts';
import { toStatusPageOutput } from './internal.ts';
import type { ListStatusPagesInput, StatusPageListOutput } from './schemas.ts';

// Unpaginated (spec 4.1 list_status_pages): a workspace has few pages.
export async function listStatusPages(args: {
	ctx: ServiceContext;
	input?: ListStatusPagesInput;
}): Promise<StatusPageListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const rows = await ctx.db.statusPage.findMany({
		where: { workspaceId: ctx.workspace.id },
		orderBy: { id: 'desc' }
	});
	return { data: rows.map(toStatusPageOutput) };
}
