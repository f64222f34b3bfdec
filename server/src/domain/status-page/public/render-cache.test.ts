import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { createWorkspace, ctxFor } from '../../../../test/factories.ts';
import { createMonitor, updateMonitor } from '../../monitor/index.ts';
import { createPageComponent } from '../../page-component/index.ts';
import { withTransaction } from '../../transaction.ts';
import { createStatusPage, updateStatusPage } from '../index.ts';
import { markPageChanged } from './page-changes.ts';
import { pageVersion, RenderCache } from './render-cache.ts';

describe('RenderCache', () => {
	it('computes a miss once while concurrent callers wait for it', async () => {
		const cache = new RenderCache<string>({ ttlMs: 60_000 });
		let computations = 0;
		let release = () => {};
		const gate = new Promise<void>((r) => (release = r));
		const compute = async () => {
			computations++;
			await gate;
			return 'rendered';
		};
		const pending = Array.from({ length: 50 }, () => cache.get('page:en:granted', compute));
		release();
		expect(await Promise.all(pending)).toEqual(Array(50).fill('rendered'));
		expect(computations).toBe(1);
		expect(await cache.get('page:en:granted', compute)).toBe('rendered');
		expect(computations).toBe(1);
	});

	it('does not keep a failed computation', async () => {
		const cache = new RenderCache<string>({ ttlMs: 60_000 });
		await expect(cache.get('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
		expect(await cache.get('k', async () => 'ok')).toBe('ok');
	});

	it('with ttl 0 computes every time; a bounded number of keys is kept', async () => {
		const off = new RenderCache<number>({ ttlMs: 0 });
		let n = 0;
		await off.get('k', async () => ++n);
		await off.get('k', async () => ++n);
		expect(n).toBe(2);
		const small = new RenderCache<number>({ ttlMs: 60_000, max: 3 });
		for (let i = 0; i < 10; i++) await small.get(`k${i}`, async () => i);
		expect(small.size).toBe(3);
	});
});

describe('page versions', () => {
	let db: Db;
	beforeAll(async () => {
		({ db } = await createTestDb());
	});
	afterAll(async () => {
		await db.$disconnect();
	});

	const newPage = async (ws: Awaited<ReturnType<typeof createWorkspace>>, title: string) =>
		createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title, slug: `rc-${title.toLowerCase()}-${ws.id}` }
		});

	it("a write verb moves its page's version, so only that page's cached renders miss", async () => {
		const ws = await createWorkspace(db);
		const cache = new RenderCache<string>({ ttlMs: 60_000 });
		const page = await newPage(ws, 'Before');
		const other = await newPage(ws, 'Other');
		let title = 'Before';
		let otherRenders = 0;
		const renderOther = async () => `other ${++otherRenders}`;
		expect(await cache.get('p', async () => title, page.id)).toBe('Before');
		expect(await cache.get('q', renderOther, other.id)).toBe('other 1');
		title = 'After';
		expect(await cache.get('p', async () => title, page.id)).toBe('Before');
		const before = pageVersion(page.id);
		await updateStatusPage({ ctx: ctxFor(db, ws), input: { pageId: page.id, title: 'After' } });
		expect(pageVersion(page.id)).toBeGreaterThan(before);
		expect(await cache.get('p', async () => title, page.id)).toBe('After');
		expect(await cache.get('q', renderOther, other.id)).toBe('other 1');
	});

	it('a monitor change moves the pages that show it, not the others', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const shows = await newPage(ws, 'Shows');
		const not = await newPage(ws, 'Not');
		const monitor = await createMonitor({
			ctx,
			input: { type: 'tcp', name: 'db', periodicity: '1m', uri: 'db:5432' }
		});
		await createPageComponent({
			ctx,
			input: { pageId: shows.id, type: 'monitor', monitor_id: monitor.id }
		});
		const [a, b] = [pageVersion(shows.id), pageVersion(not.id)];
		await updateMonitor({ ctx, input: { monitorId: monitor.id, name: 'db v2' } });
		expect(pageVersion(shows.id)).toBeGreaterThan(a);
		expect(pageVersion(not.id)).toBe(b);
	});

	it('an entry whose page is read from its value is dropped by that page only', async () => {
		const ws = await createWorkspace(db);
		const page = await newPage(ws, 'Valued');
		const other = await newPage(ws, 'Else');
		const cache = new RenderCache<{ id: number; n: number }>({
			ttlMs: 60_000,
			pageOf: (v) => v.id
		});
		let n = 0;
		const load = async () => ({ id: page.id, n: ++n });
		expect((await cache.get('by-slug', load)).n).toBe(1);
		await updateStatusPage({ ctx: ctxFor(db, ws), input: { pageId: other.id, title: 'Else 2' } });
		expect((await cache.get('by-slug', load)).n).toBe(1);
		await updateStatusPage({ ctx: ctxFor(db, ws), input: { pageId: page.id, title: 'Valued 2' } });
		expect((await cache.get('by-slug', load)).n).toBe(2);
	});

	it('reads do not move it', async () => {
		const ws = await createWorkspace(db);
		const page = await newPage(ws, 'Read');
		const v = pageVersion(page.id);
		await db.statusPage.findMany({ take: 1 });
		expect(pageVersion(page.id)).toBe(v);
	});

	it('moves again after the commit; a rolled-back transaction does not', async () => {
		const ws = await createWorkspace(db);
		const page = await newPage(ws, 'Commit');
		let inside = 0;
		await withTransaction({ db }, async (tx) => {
			await markPageChanged(tx, page.id);
			inside = pageVersion(page.id);
		});
		expect(pageVersion(page.id)).toBeGreaterThan(inside);
		await expect(
			withTransaction({ db }, async (tx) => {
				await markPageChanged(tx, page.id);
				inside = pageVersion(page.id);
				throw new Error('rolled back');
			})
		).rejects.toThrow('rolled back');
		expect(pageVersion(page.id)).toBe(inside);
	});
});
