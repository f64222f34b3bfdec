import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { createWorkspace, ctxFor } from '../../../../test/factories.ts';
import { createStatusPage, updateStatusPage } from '../index.ts';
import { pageContentVersion, RenderCache } from './render-cache.ts';

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

describe('content version', () => {
	let db: Db;
	beforeAll(async () => {
		({ db } = await createTestDb());
	});
	afterAll(async () => {
		await db.$disconnect();
	});

	it('a write verb on a page table moves the version, so cached renders of it miss', async () => {
		const ws = await createWorkspace(db);
		const cache = new RenderCache<string>({ ttlMs: 60_000 });
		const before = pageContentVersion();
		const page = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Before', slug: `rc-${Date.now()}` }
		});
		expect(pageContentVersion()).toBeGreaterThan(before);
		let title = 'Before';
		expect(await cache.get('p', async () => title)).toBe('Before');
		title = 'After';
		expect(await cache.get('p', async () => title)).toBe('Before');
		await updateStatusPage({ ctx: ctxFor(db, ws), input: { pageId: page.id, title: 'After' } });
		expect(await cache.get('p', async () => title)).toBe('After');
	});

	it('reads do not move it', async () => {
		const v = pageContentVersion();
		await db.statusPage.findMany({ take: 1 });
		expect(pageContentVersion()).toBe(v);
	});
});

describe('bumpAfterCommit', () => {
	it('moves the version again after a transaction that wrote, not after one that only read', async () => {
		const { bumpAfterCommit, bumpPageContentVersion } = await import('./render-cache.ts');
		const a = pageContentVersion();
		await bumpAfterCommit(Promise.resolve().then(bumpPageContentVersion));
		expect(pageContentVersion()).toBe(a + 2);
		await bumpAfterCommit(Promise.resolve('read only'));
		expect(pageContentVersion()).toBe(a + 2);
	});
});
