import { actorScope, auditActor, requireScope, type ServiceContext } from '../context.ts';
import type { WhoamiOutput } from './schemas.ts';

export async function whoami(args: { ctx: ServiceContext }): Promise<WhoamiOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const row = await ctx.db.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
	return {
		workspace: { id: row.id, name: row.name, slug: row.slug, plan: row.plan },
		credential: {
			type: ctx.actor.type,
			id: auditActor(ctx.actor).actorId,
			scope: actorScope(ctx.actor)
		}
	};
}
