import type { Prisma } from '@prisma/client';
import type { ServiceContext } from './context.ts';
import { orNotFound } from './errors.ts';
import {
	collectPageMarks,
	settlePageMarks,
	type PageMarks
} from './status-page/public/page-changes.ts';

export type Tx = Prisma.TransactionClient;

// What every fetch-or-throw helper (`get<X>InWorkspace` in each entity's internal.ts) takes.
export type InWorkspace = { tx: Tx; id: number; workspaceId: number };

// The row with this id in this workspace, or NOT_FOUND: another workspace's id is not found.
export function getInWorkspace<Row>(
	entity: string,
	args: InWorkspace,
	find: (where: { id: number; workspaceId: number }) => Promise<Row | null>
): Promise<Row> {
	return orNotFound(entity, args.id, find({ id: args.id, workspaceId: args.workspaceId }));
}

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
