import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { createWorkspace, ctxFor } from '../../../../test/factories.ts';
import { createStatusPage } from '../create.ts';
import { updateStatusPage } from '../update.ts';
import { watchPageContentVersion } from './content-version.ts';
import { pageVersion } from './render-cache.ts';

// Two clients on one file stand for two processes: the writer's rows move, the watcher sees them.
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

const rowSeq = async (pageId: number) =>
	Number(
		(
			await reader.$queryRaw<
				{ seq: number }[]
			>`SELECT seq FROM page_change WHERE page_id = ${pageId}`
		)[0]?.seq ?? 0
	);

// What another process's markPageChanged commits: the page's row takes the next sequence.
const changedElsewhere = (pageId: number) =>
	writer.$executeRaw`INSERT INTO page_change (page_id, seq)
		VALUES (${pageId}, (SELECT coalesce(max(seq), 0) + 1 FROM page_change))
		ON CONFLICT (page_id) DO UPDATE SET seq = excluded.seq`;

describe('page changes across processes', () => {
	it("a page change moves that page's row; a read does not", async () => {
		const ws = await createWorkspace(writer);
		const page = await createStatusPage({
			ctx: ctxFor(writer, ws),
			input: { title: 'A', slug: `cv-${ws.id}` }
		});
		const before = await rowSeq(page.id);
		expect(before).toBeGreaterThan(0);
		await updateStatusPage({ ctx: ctxFor(writer, ws), input: { pageId: page.id, title: 'A2' } });
		const after = await rowSeq(page.id);
		expect(after).toBeGreaterThan(before);
		// A read moves nothing.
		await writer.statusPage.findMany();
		expect(await rowSeq(page.id)).toBe(after);
	});

	it('the watcher drops the page another process changed, and only that page', async () => {
		const watch = watchPageContentVersion(reader, 60_000);
		try {
			await watch.check(); // first read: the baseline, not a change
			const [changed, untouched] = [900_001, 900_002];
			const [a, b] = [pageVersion(changed), pageVersion(untouched)];
			await watch.check();
			expect(pageVersion(changed)).toBe(a);
			await changedElsewhere(changed);
			await watch.check();
			expect(pageVersion(changed)).toBeGreaterThan(a);
			expect(pageVersion(untouched)).toBe(b);
		} finally {
			watch.stop();
		}
	});

	it('does not drop the cache a second time for changes this process made', async () => {
		const watch = watchPageContentVersion(reader, 60_000);
		try {
			await watch.check();
			const ws = await createWorkspace(writer);
			const page = await createStatusPage({
				ctx: ctxFor(writer, ws),
				input: { title: 'B', slug: `cv-own-${ws.id}` }
			});
			const local = pageVersion(page.id); // moved by the write itself
			await watch.check();
			expect(pageVersion(page.id)).toBe(local);
		} finally {
			watch.stop();
		}
	});
});
