import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedAnalytics, type AnalyticsStore } from '../../analytics/index.ts';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey, storedResult } from '../../../test/factories.ts';
import { createMonitor, getMonitorUptime } from './index.ts';

let db: Db;
let analytics: AnalyticsStore;
beforeAll(async () => {
	({ db } = await createTestDb());
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-uptime-'));
	analytics = createEmbeddedAnalytics({ url: `file:${path.join(dir, 'analytics.db')}` });
});
afterAll(() => analytics.close());

const http = { type: 'http', name: 'Shop', periodicity: '1m', url: 'https://e.test' } as const;
const DAY = 86_400_000;

describe('getMonitorUptime', () => {
	it('gives 90 UTC days from the daily counts, an incident day as an outage', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws, readKey());
		const m = await createMonitor({ ctx: ctxFor(db, ws), input: http });
		const row = (d: number, k: number, outcome: 'success' | 'error') =>
			storedResult({
				resultId: `u-${m.id}-${d}-${k}`,
				workspaceId: ws.id,
				monitorId: m.id,
				startedAt: Date.now() - d * DAY,
				outcome
			});
		await analytics.insertResults([
			row(3, 0, 'success'),
			row(3, 1, 'error'),
			row(2, 0, 'success'),
			row(1, 0, 'success')
		]);
		await db.incident.create({
			data: {
				workspaceId: ws.id,
				monitorId: m.id,
				startedAt: new Date(Date.now() - DAY),
				resolvedAt: new Date(Date.now() - DAY + 60_000)
			}
		});
		const { days } = await getMonitorUptime({ ctx, analytics, input: { monitorId: m.id } });
		expect(days).toHaveLength(90);
		expect(days.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
		const at = (d: number) => days[89 - d];
		expect(at(3)).toMatchObject({ checks: 2, failed: 1, uptime: 50, color: 'degraded' });
		expect(at(2)).toMatchObject({ checks: 1, failed: 0, uptime: 100, color: 'operational' });
		expect(at(1)).toMatchObject({ checks: 1, uptime: 100, color: 'major' });
		expect(at(10)).toMatchObject({ checks: 0, uptime: null, color: 'empty' });
	});

	it('returns NOT_FOUND for another workspace id', async () => {
		const theirs = await createMonitor({ ctx: ctxFor(db, await createWorkspace(db)), input: http });
		const mine = ctxFor(db, await createWorkspace(db));
		expect(
			await codeOf(getMonitorUptime({ ctx: mine, analytics, input: { monitorId: theirs.id } }))
		).toBe(`NOT_FOUND: monitor ${theirs.id} not found`);
	});
});
