import type { PrismaClient } from '@prisma/client';

// How long a connection waits for another writer (a second process on the same file, a
// self-hoster's `sqlite3` session) before SQLITE_BUSY. libSQL waits synchronously: the process
// is blocked meanwhile, so this stays short. One process never waits on itself: the adapter runs
// one transaction at a time per client.
export const BUSY_TIMEOUT_MS = 5_000;
const RETRIES = 5;

// A transaction SQLite refused as busy (the lock held past the timeout, or a busy error from
// inside it) is safe to run again from the start: nothing of it was committed.
export function isBusyError(err: unknown): boolean {
	type Failure = { message?: unknown; cause?: unknown; meta?: { driverAdapterError?: Failure } };
	for (let e = err as Failure | undefined, i = 0; e && i < 5; i++) {
		// Prisma reports SQLite's busy as P1008 "Operation has timed out", the original text below.
		const original = (e.meta?.driverAdapterError?.cause as { originalMessage?: string })
			?.originalMessage;
		if (/SQLITE_BUSY|database is locked/i.test(`${String(e.message ?? e)} ${original ?? ''}`))
			return true;
		e = e.cause as Failure | undefined;
	}
	return false;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Interactive transactions (`$transaction(async (tx) => …)`) are run again when SQLite says busy,
// a few times with a growing, jittered pause; batch transactions already wait on the lock.
export function retryingBusyTransactions<T extends PrismaClient>(client: T): T {
	const original = client.$transaction.bind(client) as (...args: unknown[]) => Promise<unknown>;
	const $transaction = async (first: unknown, ...rest: unknown[]) => {
		if (typeof first !== 'function') return original(first, ...rest);
		for (let attempt = 1; ; attempt++) {
			try {
				return await original(first, ...rest);
			} catch (err) {
				if (attempt > RETRIES || !isBusyError(err)) throw err;
				console.warn(`[db] busy transaction retried attempt=${attempt}`);
				await pause(attempt * 50 + Math.random() * 50);
			}
		}
	};
	return new Proxy(client, {
		get(target, prop, receiver) {
			if (prop === '$transaction') return $transaction;
			return Reflect.get(target, prop, receiver) as unknown;
		}
	});
}
