import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getGroupInWorkspace, requireFreeGroupName, toGroupOutput } from './internal.ts';
import { UpdateComponentGroupInput, type ComponentGroupOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export async function updateComponentGroup(args: {
	ctx: ServiceContext;
	input: UpdateComponentGroupInput;
}): Promise<ComponentGroupOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(UpdateComponentGroupInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getGroupInWorkspace({ tx, id: input.groupId, workspaceId: ctx.workspace.id });
		await requireFreeGroupName({ tx, pageId: row.pageId, name: input.name, exceptId: row.id });
		await markPageChanged(tx, row.pageId);
		const after = toGroupOutput(
			await tx.componentGroup.update({ where: { id: row.id }, data: { name: input.name } })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'component_group.update',
			entityType: 'component_group',
			entityId: row.id,
			before: toGroupOutput(row),
			after
		});
		return after;
	});
}
