import { randomUUID } from 'node:crypto';
import type { Upstate } from '../app.ts';
import { authenticateApiKey } from '../domain/api-key/index.ts';
import { UnauthorizedError } from '../domain/errors.ts';
import type { TrpcContext } from '../router/trpc.ts';

// x-service-key → a workspace-scoped context. Shared by the REST, MCP and Connect adapters, which
// differ only in `via` (MCP mutations are audited with actor_type = mcp).
export async function contextForApiKey(args: {
	upstate: Upstate;
	key: string | undefined;
	via: 'rest' | 'mcp' | 'rpc';
}): Promise<TrpcContext> {
	const found = args.key ? await authenticateApiKey({ db: args.upstate.db, key: args.key }) : null;
	if (!found)
		throw new UnauthorizedError(
			args.key ? 'invalid or revoked API key' : 'missing x-service-key header'
		);
	return {
		upstate: args.upstate,
		db: args.upstate.db,
		requestId: randomUUID(),
		user: null,
		sessionId: null,
		service: {
			db: args.upstate.db,
			workspace: found.workspace,
			actor: {
				type: 'apiKey',
				keyId: found.keyId,
				userId: found.createdById,
				scope: found.scope,
				via: args.via
			},
			requestId: randomUUID()
		}
	};
}
