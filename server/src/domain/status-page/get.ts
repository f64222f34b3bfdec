import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace, toStatusPageOutput } from './internal.ts';
import { PageIdInput, type StatusPageOutput } from './schemas.ts';

export async function getStatusPage(args: {
	ctx: ServiceContext;
	input: PageIdInput;
}): Promise<StatusPageOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { pageId } = parseInput(PageIdInput, args.input);
	return toStatusPageOutput(
		await getStatusPageInWorkspace({ tx: ctx.db, id: pageId, workspaceId: ctx.workspace.id })
	);
}
