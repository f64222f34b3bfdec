import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/db.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function shape(client: Client): Promise<Record<string, unknown>> {
	const tables = (
		await client.execute(
			"select name from sqlite_master where type = 'table' and name not like '\\_%' escape '\\' and name not like 'sqlite%' order by name"
		)
	).rows.map((r) => String(r.name));
	const out: Record<string, unknown> = {};
	for (const t of tables) {
		const cols = (await client.execute(`pragma table_info("${t}")`)).rows
			.map((c) => `${c.name} ${c.type} ${c.notnull} ${c.dflt_value} ${c.pk}`)
			.sort();
		const idx = (await client.execute(`pragma index_list("${t}")`)).rows
			.map((i) => `${i.unique}:${String(i.name)}`)
			.sort();
		out[t] = { cols, idx };
	}
	return out;
}

// A change to schema.prisma without a migration (or the reverse) fails here, not in production.
describe('schema drift', () => {
	it('the checked-in migrations build exactly the schema in prisma/schema.prisma', async () => {
		const { url } = await createTestDb();
		const migrated = createClient({ url });
		const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-drift-'));
		const diff = spawnSync(
			process.execPath,
			[
				path.join(root, 'node_modules/prisma/build/index.js'),
				'migrate',
				'diff',
				'--from-empty',
				'--to-schema-datamodel',
				'prisma/schema.prisma',
				'--script'
			],
			{
				cwd: root,
				env: { ...process.env, DATABASE_URL: `file:${path.join(dir, 'diff.db')}` },
				encoding: 'utf8'
			}
		);
		expect(diff.status, diff.stderr).toBe(0);
		const fresh = createClient({ url: `file:${path.join(dir, 'fresh.db')}` });
		await fresh.executeMultiple(diff.stdout);
		expect(await shape(migrated)).toEqual(await shape(fresh));
		migrated.close();
		fresh.close();
	}, 60000);
});
