import type { Prisma } from '@prisma/client';
import type { ServiceContext } from './context.ts';

export type Tx = Prisma.TransactionClient;

// One transaction per write verb: the row and its audit entry land together or not at all.
export function withTransaction<T>(ctx: ServiceContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
	return ctx.db.$transaction(fn);
}
