import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The status site's cache-hit path. The status app registers it when it loads
 * (`status/src/lib/server/render-cache.ts`, beside the SvelteKit hook it shares the gate and the
 * cache with); the status server in main.ts offers it every request first and hands the request
 * to SvelteKit when it answers `false` (a miss, or anything it does not serve itself).
 */
export type StatusFastPath = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

let fastPath: StatusFastPath | null = null;

export function setStatusFastPath(fn: StatusFastPath | null): void {
	fastPath = fn;
}

export const statusFastPath = (): StatusFastPath | null => fastPath;

/**
 * V8 heap bounds the status-page container runs with (docker-compose*.yaml set them as
 * NODE_OPTIONS; the bench uses them too). Node sizes its heap for the machine: on 24 GB a 64 MB
 * semi-space, and old space left to grow far past what is live, so a surge of uncached renders
 * held ~500 MB RSS. With these, the bench's surges stay under 250 MB (a 20-component page's
 * live heap is ~60-75 MB under load) for a few percent more collection time. Raise
 * --max-old-space-size if a busy instance logs "heap out of memory". Heap limits cannot be
 * changed in a running process, hence flags.
 */
export const STATUS_PAGE_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=128';
