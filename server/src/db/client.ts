import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Config as LibSQLConfig, type TransactionMode } from '@libsql/client';
import { PrismaLibSQL } from '@prisma/adapter-libsql';
import { PrismaClient } from '@prisma/client';
import { BUSY_TIMEOUT_MS, retryingBusyTransactions } from './busy.ts';

export type Db = PrismaClient;
export type { Prisma } from '@prisma/client';

// A file URL's directory is created on first use, so a fresh clone needs no setup.
export function ensureDatabaseDir(url: string): void {
	if (!url.startsWith('file:')) return;
	const file = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
	mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}

// The adapter bundles an older @libsql/client whose connections take no busy timeout; ours (the
// same API) applies `timeout` to every connection it opens, transactions' own included.
class BusyWaitingLibSQL extends PrismaLibSQL {
	constructor(config: LibSQLConfig) {
		super(config as ConstructorParameters<typeof PrismaLibSQL>[0]);
	}
	// Safe because the adapter calls only execute/batch/transaction/close, unchanged in 0.18.
	override createClient(config: LibSQLConfig) {
		const client = createClient(config);
		// Interactive transactions take the write lock at BEGIN (IMMEDIATE), where busy_timeout
		// waits for it. A deferred one that read first could only fail at its first write, at once
		// (SQLITE_BUSY_SNAPSHOT), when another process had committed meanwhile.
		const begin = client.transaction.bind(client);
		client.transaction = (mode?: TransactionMode) =>
			begin(!mode || mode === 'deferred' ? 'write' : mode);
		return client as unknown as ReturnType<PrismaLibSQL['createClient']>;
	}
}

export function createDb(opts: { url: string; authToken?: string }): Db {
	ensureDatabaseDir(opts.url);
	// Every connection of the pool (transactions get their own) waits this long for another
	// writer's lock instead of failing at once with SQLITE_BUSY (busy.ts retries what still does).
	const adapter = new BusyWaitingLibSQL({
		url: opts.url,
		authToken: opts.authToken,
		timeout: BUSY_TIMEOUT_MS
	});
	const client = new PrismaClient({ adapter });
	// A database file may be shared by several processes (services run apart, a test beside the
	// stack): in WAL mode readers never wait for a writer nor fail while one commits. The mode
	// is stored in the file, so this only changes it once.
	if (opts.url.startsWith('file:'))
		client
			.$queryRawUnsafe('PRAGMA journal_mode = WAL')
			.catch((err: Error) =>
				console.warn(`[db] could not switch ${opts.url} to WAL: ${err.message}`)
			);
	return retryingBusyTransactions(client);
}
