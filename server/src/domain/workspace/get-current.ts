import type { Workspace } from '@prisma/client';
import { requireScope, type ServiceContext } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import type { WorkspaceOutput } from './schemas.ts';

export function toWorkspaceOutput(row: Workspace, ctx: ServiceContext): WorkspaceOutput {
	return {
		id: row.id,
		name: row.name,
		slug: row.slug,
		plan: row.plan,
		paid_until: row.paidUntil,
		ends_at: row.endsAt,
		limits: resolveLimits(row.limits),
		role: ctx.actor.type === 'user' ? ctx.actor.role : null
	};
}

export async function getCurrentWorkspace(args: { ctx: ServiceContext }): Promise<WorkspaceOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const row = await ctx.db.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
	return toWorkspaceOutput(row, ctx);
}
