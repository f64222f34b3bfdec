import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { createWorkspace } from './factories.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Another process takes the write lock (as a self-hoster's `sqlite3` editing `limits` does),
// says `locked`, keeps it for `holdMs` and says `released` once committed.
function holdWriteLock(file: string, holdMs: number) {
	const script = `
		import { createClient } from '@libsql/client';
		const c = createClient({ url: ${JSON.stringify(`file:${file}`)} });
		const tx = await c.transaction('write');
		await tx.execute("UPDATE workspace SET limits = limits WHERE id > 0");
		console.log('locked');
		await new Promise((r) => setTimeout(r, ${holdMs}));
		await tx.commit();
		console.log('released');
		c.close();`;
	const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
	const events: string[] = [];
	child.stdout.on('data', (b: Buffer) => {
		for (const line of b.toString().split('\n').filter(Boolean)) events.push(line.trim());
	});
	const said = (word: string) =>
		new Promise<void>((resolve, reject) => {
			child.stdout.on('data', () => (events.includes(word) ? resolve() : 0));
			child.once('exit', (code) => (code ? reject(new Error(`lock holder exited ${code}`)) : 0));
		});
	return { events, locked: said('locked'), released: said('released') };
}

let db: Db;
let file: string;
let api: Awaited<ReturnType<typeof startApi>>;
let key: string;

beforeAll(async () => {
	const created = await createTestDb();
	db = created.db;
	file = created.url.slice('file:'.length);
	api = await startApi(createTestUpstate(db));
	key = await issueKey(db, await createWorkspace(db), 'write');
});
afterAll(() => api.close());

describe('a write lock held by another process', () => {
	it('makes an API write wait for the lock instead of answering 500', async () => {
		const holder = holdWriteLock(file, 1500);
		await holder.locked;
		const res = await fetch(`${api.url}/v1/monitors`, {
			method: 'POST',
			headers: { 'x-service-key': key, 'content-type': 'application/json' },
			body: JSON.stringify({ type: 'http', name: 'Busy', periodicity: '1m', url: 'https://a.test' })
		});
		holder.events.push(`response ${res.status}`);
		await holder.released;
		expect(res.status).toBe(201);
		// The request really met the lock: it was answered only after the other process let go.
		expect(holder.events).toEqual(['locked', 'released', 'response 201']);
		expect(await db.monitor.count({ where: { name: 'Busy' } })).toBe(1);
	});
});
