import { requireScope, type ServiceContext } from '../context.ts';
import { toMemberOutput } from './internal.ts';
import type { MemberListOutput } from './schemas.ts';

export async function listMembers(args: { ctx: ServiceContext }): Promise<MemberListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const rows = await ctx.db.membership.findMany({
		where: { workspaceId: ctx.workspace.id },
		include: { user: true },
		orderBy: { id: 'asc' }
	});
	return { data: rows.map(toMemberOutput) };
}
