// The benches' status page: 20 monitor components, each with 90 days of hourly results (about
// one day in four has a failed check), written through the domain verbs and the analytics store.
import type { AnalyticsStore, StoredResult } from '../server/src/analytics/index.ts';
import type { Db } from '../server/src/db/client.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../server/test/factories.ts';

export async function seedBenchPage(
	db: Db,
	analytics: Pick<AnalyticsStore, 'insertResults'>
): Promise<string> {
	const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'page-components': 50 } });
	const ctx = ctxFor(db, ws);
	const slug = `bench-${Date.now()}`;
	const page = await createStatusPage({ ctx, input: { title: 'Bench', slug } });
	const rows: StoredResult[] = [];
	for (let i = 0; i < 20; i++) {
		const m = await createMonitor({
			ctx,
			input: { type: 'http', name: `Service ${i}`, periodicity: '1m', url: 'https://e.test' }
		});
		await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'monitor', monitor_id: m.id, order: i }
		});
		for (let d = 0; d < 90; d++)
			for (let k = 0; k < 24; k++)
				rows.push(
					storedResult({
						resultId: `b-${m.id}-${d}-${k}`,
						workspaceId: ws.id,
						monitorId: m.id,
						startedAt: Date.now() - d * 86_400_000 - k * 3_600_000,
						outcome: (d * 24 + k + i) % 97 === 0 ? 'error' : 'success'
					})
				);
	}
	for (let i = 0; i < rows.length; i += 500) await analytics.insertResults(rows.slice(i, i + 500));
	return slug;
}
