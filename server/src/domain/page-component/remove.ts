import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getComponentInWorkspace, toComponentOutput } from './internal.ts';
import { ComponentIdInput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export async function removePageComponent(args: {
	ctx: ServiceContext;
	input: ComponentIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { componentId } = parseInput(ComponentIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getComponentInWorkspace({
			tx,
			id: componentId,
			workspaceId: ctx.workspace.id
		});
		await markPageChanged(tx, row.pageId);
		await tx.pageComponent.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'page_component.delete',
			entityType: 'page_component',
			entityId: row.id,
			before: toComponentOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
