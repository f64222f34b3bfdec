import { requireScope, type ServiceContext } from '../context.ts';
import { pendingWhere, toInvitationOutput } from './internal.ts';
import type { InvitationListOutput } from './schemas.ts';

export async function listInvitations(args: {
	ctx: ServiceContext;
}): Promise<InvitationListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const rows = await ctx.db.invitation.findMany({
		where: pendingWhere(ctx.workspace.id),
		orderBy: { id: 'desc' }
	});
	return { data: rows.map(toInvitationOutput) };
}
