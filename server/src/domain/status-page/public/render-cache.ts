// The status site's render cache: entries live until their TTL passes or the content version
// moves. The version is process-wide and bumped by the database client on every write to a
// table a public page reads (see `db/client.ts`), so a publish shows on the next request;
// writes made by another process move it within a poll (content-version.ts). The TTL bounds
// what neither sees: analytics counts.
let contentVersion = 0;

export const pageContentVersion = (): number => contentVersion;

export function bumpPageContentVersion(): void {
	contentVersion++;
}

type Entry<T> = { version: number; expires: number; value: Promise<T> };

/**
 * Single-flight memo: concurrent misses for one key share one computation; a failed
 * computation is not kept. `ttlMs: 0` turns the cache off (every call computes).
 */
export class RenderCache<T> {
	readonly ttlMs: number;
	readonly #max: number;
	readonly #entries = new Map<string, Entry<T>>();

	constructor(opts: { ttlMs: number; max?: number }) {
		this.ttlMs = opts.ttlMs;
		this.#max = opts.max ?? 2000;
	}

	get size(): number {
		return this.#entries.size;
	}

	// A current entry (settled or still computing), or nothing; never computes.
	peek(key: string): Promise<T> | undefined {
		if (this.ttlMs <= 0) return undefined;
		const hit = this.#entries.get(key);
		return hit && hit.version === contentVersion && hit.expires > Date.now()
			? hit.value
			: undefined;
	}

	get(key: string, compute: () => Promise<T>): Promise<T> {
		if (this.ttlMs <= 0) return compute();
		const version = contentVersion;
		const now = Date.now();
		const hit = this.#entries.get(key);
		if (hit && hit.version === version && hit.expires > now) return hit.value;
		const value = compute();
		this.#entries.delete(key);
		this.#entries.set(key, { version, expires: now + this.ttlMs, value });
		value.catch(() => {
			if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
		});
		// Oldest first in insertion order: a flood of distinct keys cannot grow memory unbounded.
		if (this.#entries.size > this.#max) {
			const oldest = this.#entries.keys().next();
			if (!oldest.done) this.#entries.delete(oldest.value);
		}
		return value;
	}
}

/**
 * Moves the version again once a transaction that wrote page tables has committed: a render
 * that started between the write (first bump) and the commit read the old rows.
 */
export async function bumpAfterCommit<T>(transaction: Promise<T>): Promise<T> {
	const before = contentVersion;
	const result = await transaction;
	if (contentVersion !== before) contentVersion++;
	return result;
}
