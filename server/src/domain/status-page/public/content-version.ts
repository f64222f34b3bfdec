import type { PrismaClient } from '@prisma/client';
import { isOwnChange } from './page-changes.ts';
import { noteEveryPageChanged, notePageChanged } from './render-cache.ts';

/**
 * Page changes across processes. The compose files run the status site in its own process,
 * where the dashboard's, API's, workflows' and ingest's changes never reach the in-process
 * versions; so markPageChanged also moves the page's `page_change` row (its sequence committed
 * with the change), and the status site polls the rows past the last sequence it saw.
 */
export const PAGE_VERSION_POLL_MS = 500;

/**
 * In the status site's process: drops a page's cached views whenever another process changed
 * it, within `intervalMs`. Changes this process made already dropped them and are skipped.
 */
export function watchPageContentVersion(
	db: Pick<PrismaClient, '$queryRaw'>,
	intervalMs = PAGE_VERSION_POLL_MS
): { stop: () => void; check: () => Promise<void> } {
	let seen: number | null = null;
	let failing = false;
	const check = async () => {
		try {
			if (seen === null) {
				const [top] = await db.$queryRaw<
					{ seq: number | bigint | null }[]
				>`SELECT max(seq) AS seq FROM page_change`;
				seen = Number(top?.seq ?? 0);
			} else {
				const rows = await db.$queryRaw<{ page_id: number | bigint; seq: number | bigint }[]>`
					SELECT page_id, seq FROM page_change WHERE seq > ${seen} ORDER BY seq`;
				for (const row of rows) {
					const [pageId, seq] = [Number(row.page_id), Number(row.seq)];
					if (!isOwnChange(pageId, seq)) notePageChanged(pageId);
					seen = Math.max(seen, seq);
				}
			}
			if (failing) console.log('[status-page] page change watch recovered');
			failing = false;
		} catch (err) {
			// Unknown whether anything changed: drop the cache rather than serve it stale.
			noteEveryPageChanged();
			if (!failing)
				console.warn(`[status-page] page change watch failed: ${(err as Error).message}`);
			failing = true;
		}
	};
	void check();
	const timer = setInterval(() => void check(), intervalMs);
	timer.unref();
	return { stop: () => clearInterval(timer), check };
}
