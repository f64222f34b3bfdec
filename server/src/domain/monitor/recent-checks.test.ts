import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedAnalytics, type AnalyticsStore } from '../../analytics/index.ts';
import { EMBEDDED_PIPES } from '../../analytics/pipes.ts';
import { PIPES } from '../../analytics/contract.ts';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey, storedResult } from '../../../test/factories.ts';
import { createPrivateLocation } from '../private-location/index.ts';
import { createMonitor, getRecentChecks } from './index.ts';

let db: Db;
let analytics: AnalyticsStore;
beforeAll(async () => {
	({ db } = await createTestDb());
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-recent-'));
	analytics = createEmbeddedAnalytics({ url: `file:${path.join(dir, 'analytics.db')}` });
});
afterAll(() => analytics.close());

const http = { type: 'http', name: 'Shop', periodicity: '1m', url: 'https://e.test' } as const;

describe('getRecentChecks', () => {
	it('gives the latest checks per location, oldest first, named by the private location', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws, readKey());
		const m = await createMonitor({ ctx: ctxFor(db, ws), input: http });
		const other = await createMonitor({ ctx: ctxFor(db, ws), input: http });
		const loc = await createPrivateLocation({ ctx: ctxFor(db, ws), input: { name: 'Basement' } });
		const now = Date.now();
		const rows = [];
		for (let i = 0; i < 60; i++)
			rows.push(
				storedResult({
					workspaceId: ws.id,
					monitorId: m.id,
					locationId: loc.id,
					startedAt: now - (60 - i) * 60_000,
					latency: i
				})
			);
		rows.push(
			storedResult({
				workspaceId: ws.id,
				monitorId: m.id,
				locationId: 9999,
				startedAt: now - 1000,
				outcome: 'error',
				statusCode: 503,
				error: 'expected status 200, got 503'
			}),
			// Older than the strips look back: not shown.
			storedResult({ workspaceId: ws.id, monitorId: other.id, startedAt: now - 3 * 86_400_000 })
		);
		await analytics.insertResults(rows);

		const out = await getRecentChecks({
			ctx,
			analytics,
			input: { monitorIds: [m.id, other.id] }
		});
		const [mine, quiet] = out.monitors;
		expect(quiet).toEqual({
			monitorId: other.id,
			latest: null,
			day: { success: 0, degraded: 0, error: 0 },
			locations: []
		});
		expect(mine.day).toEqual({ success: 60, degraded: 0, error: 1 });
		expect(mine.latest).toMatchObject({ outcome: 'error', statusCode: 503 });
		expect(mine.latest?.error).toBe('expected status 200, got 503');
		const basement = mine.locations.find((l) => l.locationId === loc.id);
		expect(basement?.location).toBe('Basement');
		expect(basement?.checks).toHaveLength(50);
		expect(basement?.checks.map((c) => c.latency)).toEqual(
			[...Array(50).keys()].map((i) => i + 10)
		);
		expect(mine.locations.find((l) => l.locationId === 9999)?.location).toBe('Location 9999');

		const few = await getRecentChecks({
			ctx,
			analytics,
			input: { monitorIds: [m.id], perLocation: 5 }
		});
		expect(few.monitors[0].locations.map((l) => l.checks.length)).toEqual([5, 1]);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const ws = await createWorkspace(db);
		const theirs = await createMonitor({ ctx: ctxFor(db, await createWorkspace(db)), input: http });
		const mine = await createMonitor({ ctx: ctxFor(db, ws), input: http });
		await expect(
			codeOf(
				getRecentChecks({
					ctx: ctxFor(db, ws, readKey()),
					analytics,
					input: { monitorIds: [mine.id, theirs.id] }
				})
			)
		).resolves.toBe(`NOT_FOUND: monitor ${theirs.id} not found`);
	});

	it('refuses an empty or oversized list', async () => {
		const ctx = ctxFor(db, await createWorkspace(db), readKey());
		for (const monitorIds of [[], [...Array(101).keys()].map((i) => i + 1)]) {
			await expect(
				codeOf(getRecentChecks({ ctx, analytics, input: { monitorIds } }))
			).resolves.toMatch(/^VALIDATION: /);
		}
	});

	it('the embedded pipe answers the contract: params parsed, rows in its columns', async () => {
		const pipe = EMBEDDED_PIPES[PIPES.recentChecks];
		expect(await pipe.run(analytics, { monitorIds: '1,x' })).toEqual({
			invalid: 'monitorIds: monitorIds must be a comma-separated list of ids'
		});
		const ok = await pipe.run(analytics, { monitorIds: '999999', perLocation: '3' });
		expect(ok).toEqual({ rows: [] });
	});
});
