import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@libsql/client';
import { createDb, type Db } from '../src/db/client.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TEST_DATA_DIR = path.join(os.tmpdir(), 'upstate-tests');

// A fresh real libSQL file with every checked-in migration applied, one per test file.
export async function createTestDb(): Promise<{ db: Db; url: string }> {
	mkdirSync(TEST_DATA_DIR, { recursive: true });
	const file = path.join(
		TEST_DATA_DIR,
		`t-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.db`
	);
	const url = `file:${file}`;
	const client = createClient({ url });
	const dir = path.join(root, 'prisma', 'migrations');
	for (const name of readdirSync(dir)
		.filter((d) => !d.endsWith('.toml'))
		.sort()) {
		await client.executeMultiple(readFileSync(path.join(dir, name, 'migration.sql'), 'utf8'));
	}
	client.close();
	return { db: createDb({ url }), url };
}
