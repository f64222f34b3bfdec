import { writeAudit } from '../audit.ts';
import { requireRole, requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getApiKeyInWorkspace, toApiKeyOutput } from './internal.ts';
import { ApiKeyIdInput, type ApiKeyOutput } from './schemas.ts';

// Scope is immutable: to change it, revoke and issue a new key (spec 5.1).
export async function revokeApiKey(args: {
	ctx: ServiceContext;
	input: ApiKeyIdInput;
}): Promise<ApiKeyOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const { keyId } = parseInput(ApiKeyIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getApiKeyInWorkspace({ tx, id: keyId, workspaceId: ctx.workspace.id });
		const updated = await tx.apiKey.update({
			where: { id: row.id },
			data: { revokedAt: row.revokedAt ?? new Date() }
		});
		const after = toApiKeyOutput(updated);
		await writeAudit({
			ctx,
			tx,
			action: 'api_key.revoke',
			entityType: 'api_key',
			entityId: row.id,
			before: toApiKeyOutput(row),
			after
		});
		return after;
	});
}
