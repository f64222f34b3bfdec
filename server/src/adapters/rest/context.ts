import type { Request } from 'express';
import type { Upstate } from '../../app.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { contextForApiKey } from '../api-key-context.ts';

export function toServiceCtx(upstate: Upstate, req: Request): Promise<TrpcContext> {
	return contextForApiKey({ upstate, key: req.header('x-service-key'), via: 'rest' });
}
