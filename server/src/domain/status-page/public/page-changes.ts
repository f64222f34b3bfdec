import type { Tx } from '../../transaction.ts';
import { notePageChanged } from './render-cache.ts';

/**
 * The status-page change signal. A verb that changes what a public page shows calls one of these
 * inside its transaction, as it calls writeAudit: the page's `page_change` row takes the next
 * database-wide sequence (committed with the change, so a status site in another process that
 * sees it reads the new rows; content-version.ts), and this process's render cache drops that
 * page's views at once and again after the commit (withTransaction, transaction.ts).
 *
 * What a page shows: its own row, groups, components, reports and maintenance; the state and
 * incidents of the monitors its components show; its workspace's plan (markWorkspacePagesChanged).
 */
export async function markPageChanged(tx: Tx, pageId: number): Promise<void> {
	await markPagesChanged(tx, [pageId]);
}

// Every page with a component showing the monitor (its state or incidents changed).
export async function markMonitorPagesChanged(tx: Tx, monitorId: number): Promise<void> {
	const rows = await tx.pageComponent.findMany({
		where: { monitorId },
		select: { pageId: true },
		distinct: ['pageId']
	});
	await markPagesChanged(
		tx,
		rows.map((r) => r.pageId)
	);
}

// Every page of the workspace (its plan or name changed).
export async function markWorkspacePagesChanged(tx: Tx, workspaceId: number): Promise<void> {
	const rows = await tx.statusPage.findMany({ where: { workspaceId }, select: { id: true } });
	await markPagesChanged(
		tx,
		rows.map((r) => r.id)
	);
}

// Transactions opened by withTransaction collect their marks here: pages to mark again after
// the commit, and the sequences to forget if it rolls back.
export type PageMarks = { pages: Set<number>; own: string[] };
const commitMarks = new WeakMap<object, PageMarks>();

export function collectPageMarks(tx: Tx, marks: PageMarks): void {
	commitMarks.set(tx, marks);
}

export function settlePageMarks(marks: PageMarks, committed: boolean): void {
	if (committed) for (const id of marks.pages) notePageChanged(id);
	else for (const key of marks.own) own.delete(key);
}

async function markPagesChanged(tx: Tx, pageIds: number[]): Promise<void> {
	if (pageIds.length === 0) return;
	const rows = await tx.$queryRaw<{ page_id: number | bigint; seq: number | bigint }[]>`
		INSERT INTO page_change (page_id, seq)
		SELECT value, (SELECT coalesce(max(seq), 0) + 1 FROM page_change)
		FROM json_each(${JSON.stringify(pageIds)}) WHERE true
		ON CONFLICT (page_id) DO UPDATE SET seq = excluded.seq
		RETURNING page_id, seq`;
	const marks = commitMarks.get(tx);
	for (const row of rows) marks?.own.push(rememberOwn(Number(row.page_id), Number(row.seq)));
	for (const id of pageIds) {
		notePageChanged(id);
		marks?.pages.add(id);
	}
}

// Changes this process made: its cache already dropped them, so the watcher skips them.
const own = new Set<string>();
function rememberOwn(pageId: number, seq: number): string {
	if (own.size > 10_000) own.clear();
	const key = `${pageId}:${seq}`;
	own.add(key);
	return key;
}
export const isOwnChange = (pageId: number, seq: number): boolean => own.has(`${pageId}:${seq}`);
