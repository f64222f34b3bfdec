import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireCount } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { withTransaction } from '../transaction.ts';
import { checkGroup, componentInclude, resolveMonitor, toComponentOutput } from './internal.ts';
import { CreatePageComponentInput, type PageComponentOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

export async function createPageComponent(args: {
	ctx: ServiceContext;
	input: CreatePageComponentInput;
}): Promise<PageComponentOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreatePageComponentInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const page = await getStatusPageInWorkspace({
			tx,
			id: input.pageId,
			workspaceId: ctx.workspace.id
		});
		requireCount(
			ctx.workspace.limits,
			'page-components',
			await tx.pageComponent.count({ where: { workspaceId: ctx.workspace.id } })
		);
		const monitor =
			input.type === 'monitor'
				? await resolveMonitor(tx, ctx.workspace.id, input.monitor_id)
				: null;
		await checkGroup(tx, page.id, input.group_id);
		await markPageChanged(tx, page.id);
		const row = await tx.pageComponent.create({
			data: {
				workspaceId: ctx.workspace.id,
				pageId: page.id,
				type: input.type,
				monitorId: monitor?.id ?? null,
				name: input.name || monitor?.name || '',
				description: input.description,
				order: input.order,
				groupId: input.group_id,
				groupOrder: input.group_order
			},
			include: componentInclude
		});
		const component = toComponentOutput(row);
		await writeAudit({
			ctx,
			tx,
			action: 'page_component.create',
			entityType: 'page_component',
			entityId: row.id,
			before: null,
			after: component
		});
		return component;
	});
}
