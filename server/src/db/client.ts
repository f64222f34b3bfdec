import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaLibSQL } from '@prisma/adapter-libsql';
import { PrismaClient } from '@prisma/client';

export type Db = PrismaClient;
export type { Prisma } from '@prisma/client';

// A file URL's directory is created on first use, so a fresh clone needs no setup.
export function ensureDatabaseDir(url: string): void {
	if (!url.startsWith('file:')) return;
	const file = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
	mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
}

export function createDb(opts: { url: string; authToken?: string }): Db {
	ensureDatabaseDir(opts.url);
	const adapter = new PrismaLibSQL({ url: opts.url, authToken: opts.authToken });
	return new PrismaClient({ adapter });
}
