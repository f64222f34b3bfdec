import { requireScope, type ServiceContext } from '../context.ts';
import { toGrantOutput, withClientAndUser } from './internal.ts';
import type { GrantListOutput } from './schemas.ts';

// Connected apps of the workspace: live grants, newest first.
export async function listGrants(args: { ctx: ServiceContext }): Promise<GrantListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const rows = await ctx.db.oAuthGrant.findMany({
		where: { workspaceId: ctx.workspace.id, revokedAt: null },
		include: withClientAndUser,
		orderBy: { id: 'desc' }
	});
	return { data: rows.map(toGrantOutput) };
}
