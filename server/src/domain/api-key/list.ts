import { requireScope, type ServiceContext } from '../context.ts';
import { toApiKeyOutput } from './internal.ts';
import type { ApiKeyListOutput } from './schemas.ts';

export async function listApiKeys(args: { ctx: ServiceContext }): Promise<ApiKeyListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const rows = await ctx.db.apiKey.findMany({
		where: { workspaceId: ctx.workspace.id },
		orderBy: { id: 'desc' }
	});
	return { data: rows.map(toApiKeyOutput) };
}
