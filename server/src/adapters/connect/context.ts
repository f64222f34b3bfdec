import type { Upstate } from '../../app.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { contextForApiKey } from '../api-key-context.ts';

export function toServiceCtx(upstate: Upstate, headers: Headers): Promise<TrpcContext> {
	return contextForApiKey({ upstate, key: headers.get('x-service-key') ?? undefined, via: 'rpc' });
}
