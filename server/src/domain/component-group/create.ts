import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { withTransaction } from '../transaction.ts';
import { requireFreeGroupName, toGroupOutput } from './internal.ts';
import { CreateComponentGroupInput, type ComponentGroupOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export async function createComponentGroup(args: {
	ctx: ServiceContext;
	input: CreateComponentGroupInput;
}): Promise<ComponentGroupOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreateComponentGroupInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const page = await getStatusPageInWorkspace({
			tx,
			id: input.pageId,
			workspaceId: ctx.workspace.id
		});
		await requireFreeGroupName({ tx, pageId: page.id, name: input.name });
		await markPageChanged(tx, page.id);
		const row = await tx.componentGroup.create({
			data: { workspaceId: ctx.workspace.id, pageId: page.id, name: input.name }
		});
		const group = toGroupOutput(row);
		await writeAudit({
			ctx,
			tx,
			action: 'component_group.create',
			entityType: 'component_group',
			entityId: row.id,
			before: null,
			after: group
		});
		return group;
	});
}
