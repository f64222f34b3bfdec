import type { Db } from '../server/src/db/client.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createWorkspace, ctxFor } from '../server/test/factories.ts';

// A new workspace with a status page whose one component watches an http monitor, written
// through the domain verbs straight into a stack's database.
export async function seedMonitorPage(
	db: Db,
	args: { limits: Record<string, unknown>; slug: string; title: string; monitor: string }
) {
	const ws = await createWorkspace(db, { limits: args.limits });
	const ctx = ctxFor(db, ws);
	const page = await createStatusPage({ ctx, input: { title: args.title, slug: args.slug } });
	const monitor = await createMonitor({
		ctx,
		input: { type: 'http', name: args.monitor, periodicity: '1m', url: 'https://e.test' }
	});
	await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'monitor', monitor_id: monitor.id }
	});
	return { ws, ctx, page, monitor };
}
