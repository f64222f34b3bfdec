import type { Request } from 'express';
import type { Upstate } from '../../app.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { contextForApiKey } from '../api-key-context.ts';

// x-service-key today; OAuth bearer tokens (spec 5.1) plug in here, and the key header wins.
export function toServiceCtx(upstate: Upstate, req: Request): Promise<TrpcContext> {
	return contextForApiKey({ upstate, key: req.header('x-service-key'), via: 'mcp' });
}
