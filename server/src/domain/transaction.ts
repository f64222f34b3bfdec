import type { Prisma } from '@prisma/client';
import type { ServiceContext } from './context.ts';
import { bumpAfterCommit } from './status-page/public/render-cache.ts';

export type Tx = Prisma.TransactionClient;

// One transaction per write verb: the row and its audit entry land together or not at all.
// Public status pages are re-rendered after the commit (status-page/public/render-cache.ts).
export function withTransaction<T>(ctx: ServiceContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
	return bumpAfterCommit(ctx.db.$transaction(fn));
}
