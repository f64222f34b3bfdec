import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { codeOf } from '../../../../test/expect-error.ts';
import { createWorkspace, ctxFor } from '../../../../test/factories.ts';
import { createTestUpstate, publicDeps } from '../../../../test/upstate.ts';
import { createStatusPage } from '../index.ts';
import { HISTORY_PAGE_REPORTS } from './list-history.ts';
import { listPublicHistory, type PublicDeps } from './index.ts';

let db: Db;
let deps: PublicDeps;
beforeAll(async () => {
	({ db } = await createTestDb());
	deps = publicDeps(createTestUpstate(db), { statusPageUrl: 'https://status.test/' });
});
const anon = { socketAddress: '127.0.0.1' };

// `count` reports spread over the given UTC month, one an hour from the 1st.
async function seed(page: { id: number; workspaceId: number }, month: string, count: number) {
	const start = new Date(`${month}-01T00:00:00Z`).getTime();
	await db.statusReport.createMany({
		data: Array.from({ length: count }, (_, i) => ({
			workspaceId: page.workspaceId,
			pageId: page.id,
			title: `${month} #${i}`,
			status: 'resolved',
			resolvedAt: new Date(start + i * 3_600_000 + 60_000),
			createdAt: new Date(start + i * 3_600_000)
		}))
	});
}

async function setup() {
	const ws = await createWorkspace(db);
	const s = `hist-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
	const page = await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'H', slug: s } });
	return { slug: s, page: { id: page.id, workspaceId: ws.id } };
}

describe('listPublicHistory', () => {
	it('lists whole months newest first, about 50 reports a listing, and names the older month', async () => {
		const { slug, page } = await setup();
		await seed(page, '2026-10', 30);
		await seed(page, '2026-09', 40);
		await seed(page, '2026-08', 30);
		await seed(page, '2025-05', 5);
		const list = (month?: string) =>
			listPublicHistory({ deps, input: { page: { slug }, reader: anon, month } });
		const counts = (h: Awaited<ReturnType<typeof list>>) =>
			h.months?.map((m) => [m.month, m.reports.length]);

		const newest = await list();
		// 30 + 40: the window of 50 ends inside September, which is then shown whole.
		expect(counts(newest)).toEqual([
			['2026-10', 30],
			['2026-09', 40]
		]);
		expect(newest.months?.[0].reports[0].title).toBe('2026-10 #29');
		expect(newest.older).toBe('2026-08');
		const older = await list('2026-08');
		expect(counts(older)).toEqual([
			['2026-08', 30],
			['2025-05', 5]
		]);
		expect(older.older).toBeNull();
		expect(counts(await list('2026-09'))).toEqual([
			['2026-09', 40],
			['2026-08', 30]
		]);
		// A month without reports in the page's history lists first, empty, then the older ones.
		expect(counts(await list('2026-07'))).toEqual([
			['2026-07', 0],
			['2025-05', 5]
		]);
		// The history runs from the oldest report (or the page's creation) to this month.
		const next = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1));
		for (const month of ['2025-04', next.toISOString().slice(0, 7), '2030-01'])
			expect(await codeOf(list(month))).toBe(`NOT_FOUND: history month ${month} not found`);
		expect(await codeOf(list('2026-13'))).toMatch(/^VALIDATION: month:/);
	});

	it('a page without reports has every month from its creation to now, and none before', async () => {
		const { slug } = await setup();
		const list = (month?: string) =>
			listPublicHistory({ deps, input: { page: { slug }, reader: anon, month } });
		const thisMonth = new Date().toISOString().slice(0, 7);
		expect((await list()).months).toEqual([]);
		expect(await list(thisMonth)).toMatchObject({
			months: [{ month: thisMonth, reports: [] }],
			older: null
		});
		const before = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1));
		const month = before.toISOString().slice(0, 7);
		expect(await codeOf(list(month))).toBe(`NOT_FOUND: history month ${month} not found`);
	});

	it('cuts nothing: following `older` reaches every one of 600 reports once', async () => {
		const { slug, page } = await setup();
		for (let m = 1; m <= 12; m++) await seed(page, `2025-${String(m).padStart(2, '0')}`, 50);
		const seen: string[] = [];
		let month: string | undefined;
		let listings = 0;
		do {
			const h = await listPublicHistory({ deps, input: { page: { slug }, reader: anon, month } });
			for (const m of h.months ?? []) seen.push(...m.reports.map((r) => r.title));
			expect(h.months?.length).toBeLessThanOrEqual(2);
			month = h.older ?? undefined;
			listings++;
		} while (month);
		expect(seen).toHaveLength(600);
		expect(new Set(seen).size).toBe(600);
		expect(seen[0]).toBe('2025-12 #49');
		expect(seen.at(-1)).toBe('2025-01 #0');
		expect(listings).toBe(12);
		expect(HISTORY_PAGE_REPORTS).toBe(50);
	});
});
