import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	checkGroup,
	componentInclude,
	getComponentInWorkspace,
	resolveMonitor,
	toComponentOutput
} from './internal.ts';
import { UpdatePageComponentInput, type PageComponentOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export async function updatePageComponent(args: {
	ctx: ServiceContext;
	input: UpdatePageComponentInput;
}): Promise<PageComponentOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(UpdatePageComponentInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getComponentInWorkspace({
			tx,
			id: input.componentId,
			workspaceId: ctx.workspace.id
		});
		if (input.monitor_id !== undefined && row.type !== 'monitor') {
			throw new ValidationError('monitor_id: static components have no monitor', [
				{ path: 'monitor_id', message: 'static components have no monitor' }
			]);
		}
		const monitor =
			input.monitor_id !== undefined
				? await resolveMonitor(tx, ctx.workspace.id, input.monitor_id)
				: null;
		if (input.group_id !== undefined) await checkGroup(tx, row.pageId, input.group_id);
		await markPageChanged(tx, row.pageId);
		const updated = await tx.pageComponent.update({
			where: { id: row.id },
			data: {
				name: input.name,
				description: input.description,
				order: input.order,
				groupId: input.group_id,
				groupOrder: input.group_order,
				monitorId: monitor?.id
			},
			include: componentInclude
		});
		const after = toComponentOutput(updated);
		await writeAudit({
			ctx,
			tx,
			action: 'page_component.update',
			entityType: 'page_component',
			entityId: row.id,
			before: toComponentOutput(row),
			after
		});
		return after;
	});
}
