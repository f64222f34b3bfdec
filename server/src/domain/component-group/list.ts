import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { toGroupOutput } from './internal.ts';
import { ListComponentGroupsInput, type ComponentGroupListOutput } from './schemas.ts';

export async function listComponentGroups(args: {
	ctx: ServiceContext;
	input: ListComponentGroupsInput;
}): Promise<ComponentGroupListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { pageId } = parseInput(ListComponentGroupsInput, args.input);
	const page = await getStatusPageInWorkspace({
		tx: ctx.db,
		id: pageId,
		workspaceId: ctx.workspace.id
	});
	const rows = await ctx.db.componentGroup.findMany({
		where: { pageId: page.id },
		orderBy: { id: 'asc' }
	});
	return { data: rows.map(toGroupOutput) };
}
