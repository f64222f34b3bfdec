import { createClient } from '@libsql/client';
import { describe, expect, it, vi } from 'vitest';
import { createTestDb } from '../../test/db.ts';
import { createWorkspace } from '../../test/factories.ts';
import { isBusyError } from './busy.ts';

describe('busy transactions', () => {
	it('runs a transaction again when SQLite says busy inside it, and another process cannot make it stale', async () => {
		const { db, url } = await createTestDb();
		const ws = await createWorkspace(db);
		// No busy timeout on this one: its write fails at once while the transaction holds the lock.
		const other = createClient({ url });
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		let runs = 0;
		try {
			await db.$transaction(async (tx) => {
				runs++;
				const before = await tx.workspace.findUniqueOrThrow({ where: { id: ws.id } });
				if (runs === 1)
					await other.execute({
						sql: 'UPDATE workspace SET name = ? WHERE id = ?',
						args: ['changed elsewhere', ws.id]
					});
				await tx.workspace.update({ where: { id: ws.id }, data: { name: `${before.name}!` } });
			});
			expect(runs).toBe(2);
			expect((await db.workspace.findUniqueOrThrow({ where: { id: ws.id } })).name).toBe(
				`${ws.name}!`
			);
			expect(warn.mock.calls.flat().join('\n')).toContain(
				'[db] busy transaction retried attempt=1'
			);
		} finally {
			warn.mockRestore();
			other.close();
		}
	});

	it('tells busy errors from others, through causes', () => {
		expect(isBusyError(new Error('SQLITE_BUSY: database is locked'))).toBe(true);
		expect(isBusyError(new Error('wrapped', { cause: new Error('SQLITE_BUSY_SNAPSHOT') }))).toBe(
			true
		);
		expect(isBusyError(new Error('UNIQUE constraint failed'))).toBe(false);
	});
});
