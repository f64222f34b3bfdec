import { writeAudit } from '../audit.ts';
import { actingUserId, requireRole, requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { generateKey, hashKey, toApiKeyOutput } from './internal.ts';
import { CreateApiKeyInput, type CreatedApiKeyOutput } from './schemas.ts';

// Owners and admins issue keys; the full key is in this response only.
export async function createApiKey(args: {
	ctx: ServiceContext;
	input: CreateApiKeyInput;
}): Promise<CreatedApiKeyOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const input = parseInput(CreateApiKeyInput, args.input);
	const key = generateKey();
	return withTransaction(ctx, async (tx) => {
		const row = await tx.apiKey.create({
			data: {
				workspaceId: ctx.workspace.id,
				name: input.name,
				scope: input.scope,
				start: key.slice(0, 8),
				keyHash: hashKey(key),
				createdById: actingUserId(ctx.actor)
			}
		});
		const output = toApiKeyOutput(row);
		await writeAudit({
			ctx,
			tx,
			action: 'api_key.create',
			entityType: 'api_key',
			entityId: row.id,
			before: null,
			after: output
		});
		return { ...output, key };
	});
}
