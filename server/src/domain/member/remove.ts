import { writeAudit } from '../audit.ts';
import { requireRole, requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { revokeMemberGrants } from '../oauth/index.ts';
import { withTransaction } from '../transaction.ts';
import { getMemberInWorkspace, keepAnOwner, toMemberOutput } from './internal.ts';
import { MemberIdInput } from './schemas.ts';

// Removing a member also ends their sessions in this workspace and their connected apps.
export async function removeMember(args: {
	ctx: ServiceContext;
	input: MemberIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const { userId } = parseInput(MemberIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getMemberInWorkspace({ tx, userId, workspaceId: ctx.workspace.id });
		await keepAnOwner(tx, row);
		await tx.membership.delete({ where: { id: row.id } });
		await tx.session.deleteMany({ where: { userId, workspaceId: ctx.workspace.id } });
		await revokeMemberGrants({ ctx, tx, userId });
		await writeAudit({
			ctx,
			tx,
			action: 'member.delete',
			entityType: 'member',
			entityId: userId,
			before: toMemberOutput(row),
			after: null
		});
		return { id: userId, deleted: true as const };
	});
}
