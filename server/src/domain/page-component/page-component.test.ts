import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import type { ServiceContext } from '../context.ts';
import { createComponentGroup } from '../component-group/index.ts';
import { createMonitor } from '../monitor/index.ts';
import { createStatusPage } from '../status-page/index.ts';
import {
	createPageComponent,
	listPageComponents,
	removePageComponent,
	updatePageComponent
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

async function setup(limits?: Record<string, unknown>) {
	const ws = await createWorkspace(db, limits ? { plan: 'free', limits } : {});
	const ctx = ctxFor(db, ws);
	const page = await createStatusPage({ ctx, input: { title: 'P', slug: `p-${ws.id}` } });
	return { ws, ctx, page };
}
const monitorOf = (ctx: ServiceContext) =>
	createMonitor({
		ctx,
		input: { type: 'http', name: 'API', periodicity: '10m', url: 'https://e.com' }
	});

describe('page component service', () => {
	it('links a monitor (named after it by default) or adds a static component, with audit', async () => {
		const { ws, ctx, page } = await setup();
		const m = await monitorOf(ctx);
		const linked = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'monitor', monitor_id: m.id }
		});
		expect(linked).toMatchObject({
			type: 'monitor',
			name: 'API',
			monitor: { id: m.id, name: 'API' }
		});
		const group = await createComponentGroup({ ctx, input: { pageId: page.id, name: 'Core' } });
		const stat = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'Docs', group_id: group.id, order: 0 }
		});
		expect(
			(await listPageComponents({ ctx, input: { pageId: page.id } })).data.map((c) => c.id)
		).toEqual([linked.id, stat.id]);
		const moved = await updatePageComponent({
			ctx,
			input: { componentId: stat.id, group_id: null, order: 5 }
		});
		expect(moved).toMatchObject({ group_id: null, order: 5 });
		await removePageComponent({ ctx, input: { componentId: linked.id } });
		const actions = (
			await db.auditLog.findMany({
				where: { workspaceId: ws.id, entityType: 'page_component' },
				orderBy: { id: 'asc' }
			})
		).map((a) => a.action);
		expect(actions).toEqual([
			'page_component.create',
			'page_component.create',
			'page_component.update',
			'page_component.delete'
		]);
	});

	it('enforces bounds, the page-components limit and immutable fields', async () => {
		const { ctx, page } = await setup({});
		expect(
			await codeOf(
				createPageComponent({
					ctx,
					input: { pageId: page.id, type: 'static', name: 'x'.repeat(257) }
				})
			)
		).toMatch(/^VALIDATION: name:/);
		expect(
			await codeOf(
				createPageComponent({ ctx, input: { pageId: page.id, type: 'monitor' } as never })
			)
		).toMatch(/^VALIDATION: monitor_id/);
		for (const name of ['a', 'b', 'c'])
			await createPageComponent({ ctx, input: { pageId: page.id, type: 'static', name } });
		expect(
			await codeOf(
				createPageComponent({ ctx, input: { pageId: page.id, type: 'static', name: 'd' } })
			)
		).toBe("LIMIT_EXCEEDED: limit 'page-components' reached: your plan allows 3");
		const [first] = (await listPageComponents({ ctx, input: { pageId: page.id } })).data;
		expect(
			await codeOf(
				updatePageComponent({ ctx, input: { componentId: first.id, page_id: 9 } as never })
			)
		).toMatch(/^VALIDATION/);
		expect(
			await codeOf(updatePageComponent({ ctx, input: { componentId: first.id, monitor_id: 1 } }))
		).toMatch(/^VALIDATION: monitor_id: static/);
	});

	it('rejects read-only key', async () => {
		const { ws, page } = await setup();
		expect(
			await codeOf(
				createPageComponent({
					ctx: ctxFor(db, ws, readKey()),
					input: { pageId: page.id, type: 'static', name: 'x' }
				})
			)
		).toMatch(/^FORBIDDEN/);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await setup();
		const theirs = await setup();
		const theirMonitor = await monitorOf(theirs.ctx);
		expect(
			await codeOf(
				createPageComponent({
					ctx: mine.ctx,
					input: { pageId: theirs.page.id, type: 'static', name: 'x' }
				})
			)
		).toBe(`NOT_FOUND: status page ${theirs.page.id} not found`);
		expect(
			await codeOf(
				createPageComponent({
					ctx: mine.ctx,
					input: { pageId: mine.page.id, type: 'monitor', monitor_id: theirMonitor.id }
				})
			)
		).toBe(`NOT_FOUND: monitor ${theirMonitor.id} not found`);
		const theirGroup = await createComponentGroup({
			ctx: theirs.ctx,
			input: { pageId: theirs.page.id, name: 'G' }
		});
		expect(
			await codeOf(
				createPageComponent({
					ctx: mine.ctx,
					input: { pageId: mine.page.id, type: 'static', name: 'x', group_id: theirGroup.id }
				})
			)
		).toMatch(/^NOT_FOUND: component group/);
		const theirComponent = await createPageComponent({
			ctx: theirs.ctx,
			input: { pageId: theirs.page.id, type: 'static', name: 'x' }
		});
		expect(
			await codeOf(
				removePageComponent({ ctx: mine.ctx, input: { componentId: theirComponent.id } })
			)
		).toMatch(/^NOT_FOUND/);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx, page } = await setup();
		const other = await setup();
		const group = await createComponentGroup({
			ctx: other.ctx,
			input: { pageId: other.page.id, name: 'G' }
		});
		expect(
			await codeOf(
				createPageComponent({
					ctx,
					input: { pageId: page.id, type: 'static', name: 'x', group_id: group.id }
				})
			)
		).toMatch(/^NOT_FOUND/);
		expect(await db.pageComponent.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(
			await db.auditLog.count({ where: { workspaceId: ws.id, entityType: 'page_component' } })
		).toBe(0);
	});
});
