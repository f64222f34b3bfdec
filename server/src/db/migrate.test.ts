import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.ts';

describe('db-migrate', () => {
	it('applies every migration to a new file and changes nothing on a second run', async () => {
		const url = `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'upstate-migrate-')), 'nested', 'up.db')}`;
		migrate(url);
		const client = createClient({ url });
		const schema = async () =>
			(
				await client.execute(
					"select name, sql from sqlite_master where type in ('table','index') order by name"
				)
			).rows.map((r) => `${r.name}:${r.sql}`);
		const first = await schema();
		expect(first.some((s) => s.startsWith('monitor:'))).toBe(true);
		expect(first.some((s) => s.startsWith('audit_log:'))).toBe(true);
		const applied = (await client.execute('select count(*) as n from _prisma_migrations')).rows[0]
			.n;
		migrate(url);
		expect(await schema()).toEqual(first);
		expect((await client.execute('select count(*) as n from _prisma_migrations')).rows[0].n).toBe(
			applied
		);
		client.close();
	}, 60000);
});
