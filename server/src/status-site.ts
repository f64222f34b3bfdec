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
