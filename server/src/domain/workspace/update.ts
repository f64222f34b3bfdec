import { writeAudit } from '../audit.ts';
import { requireRole, requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { toWorkspaceOutput } from './get-current.ts';
import { UpdateWorkspaceInput, type WorkspaceOutput } from './schemas.ts';
import { markWorkspacePagesChanged } from '../status-page/public/page-changes.ts';

export async function updateWorkspace(args: {
	ctx: ServiceContext;
	input: UpdateWorkspaceInput;
}): Promise<WorkspaceOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const input = parseInput(UpdateWorkspaceInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const before = await tx.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
		await markWorkspacePagesChanged(tx, ctx.workspace.id);
		const after = await tx.workspace.update({
			where: { id: ctx.workspace.id },
			data: { name: input.name }
		});
		await writeAudit({
			ctx,
			tx,
			action: 'workspace.update',
			entityType: 'workspace',
			entityId: ctx.workspace.id,
			before: { name: before.name },
			after: { name: after.name }
		});
		return toWorkspaceOutput(after, ctx);
	});
}
