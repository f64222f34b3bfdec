import type { ServiceContext } from '../context.ts';

export async function locationNames(
	ctx: ServiceContext,
	ids: number[]
): Promise<Map<number, string>> {
	const rows = await ctx.db.privateLocation.findMany({
		where: { id: { in: [...new Set(ids)] }, workspaceId: ctx.workspace.id },
		select: { id: true, name: true }
	});
	return new Map(rows.map((r) => [r.id, r.name]));
}
