import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { createWorkspace, ctxFor } from '../../../../test/factories.ts';
import { createStatusPage } from '../create.ts';
import { watchPageContentVersion } from './content-version.ts';
import { pageContentVersion } from './render-cache.ts';

// Two clients on one file stand for two processes: the writer's row moves, the watcher sees it.
let writer: Db;
let reader: Db;
beforeAll(async () => {
	const { db, url } = await createTestDb();
	writer = db;
	reader = createDb({ url });
});
afterAll(async () => {
	await writer.$disconnect();
	await reader.$disconnect();
});

const rowVersion = async () =>
	Number(
		(
			await reader.$queryRaw<
				{ version: number }[]
			>`SELECT version FROM page_content_version WHERE id = 1`
		)[0]?.version ?? 0
	);

const until = async (ok: () => Promise<boolean>) => {
	for (let i = 0; i < 200 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('page content version across processes', () => {
	it('a write to a page table moves the shared row; a read does not', async () => {
		const ws = await createWorkspace(writer);
		const before = await rowVersion();
		await createStatusPage({ ctx: ctxFor(writer, ws), input: { title: 'A', slug: `cv-${ws.id}` } });
		await until(async () => (await rowVersion()) > before);
		const after = await rowVersion();
		expect(after).toBeGreaterThan(before);
		// A read moves nothing.
		await writer.statusPage.findMany();
		await new Promise((r) => setTimeout(r, 50));
		expect(await rowVersion()).toBe(after);
	});

	it('the watcher moves the local version when another process moved the row', async () => {
		const watch = watchPageContentVersion(reader, 60_000);
		try {
			await watch.check(); // first read: the baseline, not a change
			const local = pageContentVersion();
			await watch.check();
			expect(pageContentVersion()).toBe(local);
			await writer.$executeRaw`INSERT INTO page_content_version (id, version) VALUES (1, 1)
				ON CONFLICT (id) DO UPDATE SET version = version + 1`;
			await watch.check();
			expect(pageContentVersion()).toBe(local + 1);
		} finally {
			watch.stop();
		}
	});

	it('does not drop the cache a second time for changes this process published', async () => {
		const watch = watchPageContentVersion(reader, 60_000);
		try {
			await watch.check();
			const ws = await createWorkspace(writer);
			const before = await rowVersion();
			await createStatusPage({
				ctx: ctxFor(writer, ws),
				input: { title: 'B', slug: `cv-own-${ws.id}` }
			});
			await until(async () => (await rowVersion()) > before);
			await new Promise((r) => setTimeout(r, 20)); // the publisher has noted its version
			const local = pageContentVersion(); // moved by the write itself
			await watch.check();
			expect(pageContentVersion()).toBe(local);
		} finally {
			watch.stop();
		}
	});
});
