import { writeAudit } from '../audit.ts';
import { requireRole, requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getMemberInWorkspace, keepAnOwner, toMemberOutput } from './internal.ts';
import { UpdateMemberRoleInput, type MemberOutput } from './schemas.ts';

export async function updateMemberRole(args: {
	ctx: ServiceContext;
	input: UpdateMemberRoleInput;
}): Promise<MemberOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const input = parseInput(UpdateMemberRoleInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getMemberInWorkspace({
			tx,
			userId: input.userId,
			workspaceId: ctx.workspace.id
		});
		if (input.role !== 'owner') await keepAnOwner(tx, row);
		const updated = await tx.membership.update({
			where: { id: row.id },
			data: { role: input.role },
			include: { user: true }
		});
		const after = toMemberOutput(updated);
		await writeAudit({
			ctx,
			tx,
			action: 'member.update',
			entityType: 'member',
			entityId: row.userId,
			before: toMemberOutput(row),
			after
		});
		return after;
	});
}
