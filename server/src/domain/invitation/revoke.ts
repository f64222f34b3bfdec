import { writeAudit } from '../audit.ts';
import { requireRole, requireScope, type ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { toInvitationOutput } from './internal.ts';
import { InvitationIdInput } from './schemas.ts';

export async function revokeInvitation(args: {
	ctx: ServiceContext;
	input: InvitationIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const { invitationId } = parseInput(InvitationIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await tx.invitation.findFirst({
			where: { id: invitationId, workspaceId: ctx.workspace.id, acceptedAt: null }
		});
		if (!row) throw new NotFoundError('invitation', invitationId);
		await tx.invitation.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'invitation.delete',
			entityType: 'invitation',
			entityId: row.id,
			before: toInvitationOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
