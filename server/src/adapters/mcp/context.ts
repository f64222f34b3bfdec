import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Upstate } from '../../app.ts';
import { authenticateAccessToken } from '../../domain/oauth/index.ts';
import { UnauthorizedError } from '../../domain/errors.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { contextForApiKey } from '../api-key-context.ts';

// Spec 5.1: x-service-key, or an OAuth access token in the Authorization header (never the
// query string); when both are present the key header wins. OAuth tokens are for /mcp only:
// this is their one audience, and the REST adapter does not read them.
export async function toServiceCtx(upstate: Upstate, req: Request): Promise<TrpcContext> {
	const key = req.header('x-service-key');
	const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
	if (key || !bearer) return contextForApiKey({ upstate, key, via: 'mcp' });
	const grant = await authenticateAccessToken({ db: upstate.db, token: bearer });
	if (!grant)
		throw new UnauthorizedError(
			'invalid, expired or revoked access token: refresh it or connect the app again'
		);
	const requestId = randomUUID();
	return {
		upstate,
		db: upstate.db,
		requestId,
		user: null,
		sessionId: null,
		service: {
			db: upstate.db,
			workspace: grant.workspace,
			actor: { type: 'oauth', grantId: grant.grantId, userId: grant.userId, scope: grant.scope },
			requestId
		}
	};
}
