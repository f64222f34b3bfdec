import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getStatusPageInWorkspace, toStatusPageOutput } from './internal.ts';
import { PageIdInput } from './schemas.ts';
import { markPageChanged } from './public/page-changes.ts';

// Removes the page with its components, groups, reports, maintenance and subscribers.
export async function removeStatusPage(args: {
	ctx: ServiceContext;
	input: PageIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { pageId } = parseInput(PageIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getStatusPageInWorkspace({ tx, id: pageId, workspaceId: ctx.workspace.id });
		await markPageChanged(tx, row.id);
		await tx.statusPage.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'status_page.delete',
			entityType: 'status_page',
			entityId: row.id,
			before: toStatusPageOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
