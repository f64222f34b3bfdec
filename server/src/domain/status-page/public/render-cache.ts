import { LRUCache } from 'lru-cache';

// The status site's render cache: an entry lives until its TTL passes or its page changes.
// Verbs that change what a page shows call markPageChanged (page-changes.ts) inside their
// transaction, which moves that page's version here at once and again after the commit, so a
// publish shows on the next request; changes made by another process arrive within a poll
// (content-version.ts). The TTL bounds what neither sees: analytics counts.
//
// Versions are one process-wide clock: a change stamps its page with the next tick, and an
// entry is fresh while no change to its page is newer than the tick its computation began at.
let clock = 0;
const pageChangedAt = new Map<number, number>();
let anyPageChangedAt = 0; // entries whose page is not known yet (still computing) follow this
let everyPageChangedAt = 0; // "something changed, unknown what": every entry is stale

export function notePageChanged(pageId: number): void {
	clock++;
	pageChangedAt.set(pageId, clock);
	anyPageChangedAt = clock;
}

export function noteEveryPageChanged(): void {
	clock++;
	anyPageChangedAt = everyPageChangedAt = clock;
}

// The tick of the page's last change seen by this process (0: none).
export const pageVersion = (pageId: number): number =>
	Math.max(pageChangedAt.get(pageId) ?? 0, everyPageChangedAt);

function isFresh(at: number, page: number | null): boolean {
	if (at < everyPageChangedAt) return false;
	return at >= (page === null ? anyPageChangedAt : (pageChangedAt.get(page) ?? 0));
}

type Entry<T> = { at: number; page: number | null; value: Promise<T> };

/**
 * Single-flight memo: concurrent misses for one key share one computation; a failed
 * computation is not kept. `ttlMs: 0` turns the cache off (every call computes). Each entry
 * belongs to one page, given by the caller or read from the value (`pageOf`), and only that
 * page's changes drop it. Bounds and expiry are lru-cache's: at most `max` keys, least
 * recently used out first, so a flood of distinct keys cannot grow memory.
 */
export class RenderCache<T> {
	readonly ttlMs: number;
	readonly #pageOf: ((value: T) => number) | undefined;
	readonly #entries: LRUCache<string, Entry<T>>;

	constructor(opts: { ttlMs: number; max?: number; pageOf?: (value: T) => number }) {
		this.ttlMs = opts.ttlMs;
		this.#pageOf = opts.pageOf;
		this.#entries = new LRUCache<string, Entry<T>>({
			max: opts.max ?? 2000,
			ttl: Math.max(opts.ttlMs, 1)
		});
	}

	get size(): number {
		return this.#entries.size;
	}

	#current(key: string): Entry<T> | undefined {
		const hit = this.#entries.get(key);
		return hit && isFresh(hit.at, hit.page) ? hit : undefined;
	}

	// A current entry (settled or still computing), or nothing; never computes.
	peek(key: string): Promise<T> | undefined {
		if (this.ttlMs <= 0) return undefined;
		return this.#current(key)?.value;
	}

	get(key: string, compute: () => Promise<T>, page?: number): Promise<T> {
		if (this.ttlMs <= 0) return compute();
		const hit = this.#current(key);
		if (hit) return hit.value;
		const value = compute();
		const entry: Entry<T> = { at: clock, page: page ?? null, value };
		this.#entries.set(key, entry);
		const pageOf = this.#pageOf;
		value.then(
			(v) => {
				if (page === undefined && pageOf) entry.page = pageOf(v);
			},
			() => {
				if (this.#entries.peek(key) === entry) this.#entries.delete(key);
			}
		);
		return value;
	}
}
