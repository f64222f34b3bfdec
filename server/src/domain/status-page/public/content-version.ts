import type { PrismaClient } from '@prisma/client';
import { bumpPageContentVersion } from './render-cache.ts';

/**
 * The render cache's content version, across processes. The compose files run the status site
 * in its own process, where the dashboard's, API's, workflows' and ingest's writes never move
 * the in-process version; so every process that writes page tables also moves one database row
 * (`page_content_version`), and the status site polls it.
 *
 * The publisher is per database client and coalesces the writes of one tick into one upsert.
 * The upsert runs after an open transaction on this client commits (the libSQL adapter holds
 * its lock for the whole transaction), so a reader that sees the row move reads the new data.
 */
export function pageVersionPublisher(client: PrismaClient): () => void {
	let queued = false;
	return () => {
		if (queued) return;
		queued = true;
		setImmediate(() => {
			queued = false;
			client.$queryRaw<
				{ version: number | bigint }[]
			>`INSERT INTO page_content_version (id, version)
				VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = version + 1 RETURNING version`.then(
				(rows) => remember(Number(rows[0]?.version)),
				(err: Error) =>
					console.warn(`[status-page] failed to publish a page change: ${err.message}`)
			);
		});
	};
}

// Versions this process published: its own writes already moved the local version, so the
// watcher does not drop the cache a second time for them.
const published = new Set<number>();
function remember(version: number): void {
	if (published.size > 1000) published.clear();
	published.add(version);
}
const onlyOwn = (from: number, to: number) => {
	for (let v = from + 1; v <= to; v++) if (!published.has(v)) return false;
	return true;
};

export const PAGE_VERSION_POLL_MS = 500;

/**
 * In the status site's process: moves the local content version whenever another process moved
 * the row, so its cached pages are dropped within `intervalMs` of a change made elsewhere.
 */
export function watchPageContentVersion(
	db: Pick<PrismaClient, '$queryRaw'>,
	intervalMs = PAGE_VERSION_POLL_MS
): { stop: () => void; check: () => Promise<void> } {
	let seen: number | null = null;
	let failing = false;
	const check = async () => {
		try {
			const rows = await db.$queryRaw<
				{ version: number | bigint }[]
			>`SELECT version FROM page_content_version WHERE id = 1`;
			const version = Number(rows[0]?.version ?? 0);
			if (seen !== null && version !== seen && !onlyOwn(seen, version)) bumpPageContentVersion();
			seen = version;
			if (failing) console.log('[status-page] page change watch recovered');
			failing = false;
		} catch (err) {
			// Unknown whether anything changed: drop the cache rather than serve it stale.
			bumpPageContentVersion();
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
