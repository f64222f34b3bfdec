import type { Prisma } from '@prisma/client';
import type { ServiceContext } from './context.ts';
import {
	collectPageMarks,
	settlePageMarks,
	type PageMarks
} from './status-page/public/page-changes.ts';

export type Tx = Prisma.TransactionClient;

// One transaction per write verb: the row and its audit entry land together or not at all.
// Pages the verb marked changed are re-rendered after the commit (public/page-changes.ts).
export async function withTransaction<T>(
	ctx: Pick<ServiceContext, 'db'>,
	fn: (tx: Tx) => Promise<T>
): Promise<T> {
	const marks: PageMarks = { pages: new Set(), own: [] };
	let committed = false;
	try {
		const result = await ctx.db.$transaction((tx) => {
			collectPageMarks(tx, marks);
			return fn(tx);
		});
		committed = true;
		return result;
	} finally {
		settlePageMarks(marks, committed);
	}
}
