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
 * At most `limit` requests inside SvelteKit at once; the rest wait their turn in arrival order.
 * Rendering is CPU-bound, so running 50 renders interleaved finishes none sooner: it only holds
 * 50 renders' data in memory at once (RSS) and makes every garbage collection copy it.
 */
export function admitRenders(
	limit: number,
	handler: (req: IncomingMessage, res: ServerResponse) => void
): (req: IncomingMessage, res: ServerResponse) => void {
	let running = 0;
	const waiting: (() => void)[] = [];
	const start = (req: IncomingMessage, res: ServerResponse) => {
		running++;
		let done = false;
		const finish = () => {
			if (done) return;
			done = true;
			running--;
			waiting.shift()?.();
		};
		res.once('close', finish);
		res.once('finish', finish);
		handler(req, res);
	};
	return (req, res) => {
		if (running < limit) return start(req, res);
		waiting.push(() => (res.destroyed ? waiting.shift()?.() : start(req, res)));
	};
}
