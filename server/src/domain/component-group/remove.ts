import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getGroupInWorkspace, toGroupOutput } from './internal.ts';
import { GroupIdInput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

// The group's components stay on the page, ungrouped.
export async function removeComponentGroup(args: {
	ctx: ServiceContext;
	input: GroupIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { groupId } = parseInput(GroupIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getGroupInWorkspace({ tx, id: groupId, workspaceId: ctx.workspace.id });
		await markPageChanged(tx, row.pageId);
		await tx.componentGroup.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'component_group.delete',
			entityType: 'component_group',
			entityId: row.id,
			before: toGroupOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
