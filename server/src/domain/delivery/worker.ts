import type { Db } from '../../db/client.ts';
import type { Notifier } from '../../notify/index.ts';
import { runDueDeliveries, type RunDueOptions } from './run-due.ts';

export type DeliveryWorker = {
	start(): void;
	kick(): void; // something was just enqueued: send now rather than at the next poll
	stop(): Promise<void>;
	idle(): Promise<void>; // resolves when no run is in progress (tests, shutdown)
};

// Sends outbox rows as soon as they are kicked and polls for due retries. One run at a time per
// worker; a kick during a run schedules one more run. Pending rows left by a previous process
// are due at once, so a restart picks them up on its first poll.
export function createDeliveryWorker(args: {
	db: Db;
	notifier: Notifier;
	pollMs?: number;
	options?: RunDueOptions;
}): DeliveryWorker {
	let timer: NodeJS.Timeout | undefined;
	let running: Promise<void> | null = null;
	let again = false;
	let stopped = false;
	const run = () => {
		if (stopped) return;
		if (running) {
			again = true;
			return;
		}
		running = (async () => {
			do {
				again = false;
				try {
					// A claimed batch may not be the last: go on until nothing is due (fan-out).
					if ((await runDueDeliveries(args)).claimed > 0) again = true;
				} catch (err) {
					console.error(`[delivery] run failed error=${JSON.stringify((err as Error).message)}`);
				}
			} while (again && !stopped);
		})().finally(() => {
			running = null;
		});
	};
	return {
		start() {
			stopped = false;
			timer ??= setInterval(run, args.pollMs ?? 5000);
			timer.unref();
			run();
		},
		kick: run,
		async stop() {
			stopped = true;
			if (timer) clearInterval(timer);
			timer = undefined;
			await running;
		},
		async idle() {
			while (running) await running;
		}
	};
}
