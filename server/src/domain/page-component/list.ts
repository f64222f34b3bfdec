import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { componentInclude, toComponentOutput } from './internal.ts';
import { ListPageComponentsInput, type PageComponentListOutput } from './schemas.ts';

export async function listPageComponents(args: {
	ctx: ServiceContext;
	input: ListPageComponentsInput;
}): Promise<PageComponentListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { pageId } = parseInput(ListPageComponentsInput, args.input);
	const page = await getStatusPageInWorkspace({
		tx: ctx.db,
		id: pageId,
		workspaceId: ctx.workspace.id
	});
	const rows = await ctx.db.pageComponent.findMany({
		where: { pageId: page.id },
		include: componentInclude,
		orderBy: [{ order: 'asc' }, { id: 'asc' }]
	});
	return { data: rows.map(toComponentOutput) };
}
