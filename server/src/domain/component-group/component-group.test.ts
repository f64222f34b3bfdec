import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createPageComponent, listPageComponents } from '../page-component/index.ts';
import { createStatusPage } from '../status-page/index.ts';
import {
	createComponentGroup,
	listComponentGroups,
	removeComponentGroup,
	updateComponentGroup
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

async function setup() {
	const ws = await createWorkspace(db);
	const ctx = ctxFor(db, ws);
	return {
		ws,
		ctx,
		page: await createStatusPage({ ctx, input: { title: 'P', slug: `g-${ws.id}` } })
	};
}

describe('component group service', () => {
	it('creates, renames and deletes a group, leaving its components ungrouped', async () => {
		const { ws, ctx, page } = await setup();
		const g = await createComponentGroup({ ctx, input: { pageId: page.id, name: 'Core' } });
		const c = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'API', group_id: g.id }
		});
		expect(
			(await updateComponentGroup({ ctx, input: { groupId: g.id, name: 'Platform' } })).name
		).toBe('Platform');
		expect(
			(await listComponentGroups({ ctx, input: { pageId: page.id } })).data.map((x) => x.name)
		).toEqual(['Platform']);
		await removeComponentGroup({ ctx, input: { groupId: g.id } });
		expect((await listPageComponents({ ctx, input: { pageId: page.id } })).data).toEqual([
			expect.objectContaining({ id: c.id, group_id: null })
		]);
		const entry = await db.auditLog.findFirstOrThrow({
			where: { workspaceId: ws.id, action: 'component_group.update' }
		});
		expect(JSON.parse(entry.changedFields)).toEqual(['name']);
	});

	it('refuses a second group of the same name on a page with CONFLICT', async () => {
		const { ws, ctx, page } = await setup();
		const core = await createComponentGroup({ ctx, input: { pageId: page.id, name: 'Core' } });
		const edge = await createComponentGroup({ ctx, input: { pageId: page.id, name: 'Edge' } });
		expect(
			await codeOf(createComponentGroup({ ctx, input: { pageId: page.id, name: ' core ' } }))
		).toBe("CONFLICT: a group named ' core ' already exists on this page");
		expect(
			await codeOf(updateComponentGroup({ ctx, input: { groupId: edge.id, name: 'CORE' } }))
		).toBe("CONFLICT: a group named 'CORE' already exists on this page");
		// Renaming a group to its own name (any case) is not a clash.
		expect(
			(await updateComponentGroup({ ctx, input: { groupId: core.id, name: 'CORE' } })).name
		).toBe('CORE');
		// Another page may use the name.
		const other = await createStatusPage({ ctx, input: { title: 'Q', slug: `q-${ws.id}` } });
		await createComponentGroup({ ctx, input: { pageId: other.id, name: 'Core' } });
		expect(
			(await listComponentGroups({ ctx, input: { pageId: page.id } })).data.map((g) => g.name)
		).toEqual(['CORE', 'Edge']);
	});

	it('enforces the name bounds', async () => {
		const { ctx, page } = await setup();
		expect(
			await codeOf(createComponentGroup({ ctx, input: { pageId: page.id, name: '' } }))
		).toMatch(/^VALIDATION: name:/);
		expect(
			await codeOf(createComponentGroup({ ctx, input: { pageId: page.id, name: 'x'.repeat(257) } }))
		).toMatch(/^VALIDATION: name:/);
	});

	it('rejects read-only key', async () => {
		const { ws, page } = await setup();
		expect(
			await codeOf(
				createComponentGroup({
					ctx: ctxFor(db, ws, readKey()),
					input: { pageId: page.id, name: 'G' }
				})
			)
		).toMatch(/^FORBIDDEN/);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await setup();
		const theirs = await setup();
		const g = await createComponentGroup({
			ctx: theirs.ctx,
			input: { pageId: theirs.page.id, name: 'G' }
		});
		expect(
			await codeOf(
				createComponentGroup({ ctx: mine.ctx, input: { pageId: theirs.page.id, name: 'G' } })
			)
		).toMatch(/^NOT_FOUND: status page/);
		expect(
			await codeOf(updateComponentGroup({ ctx: mine.ctx, input: { groupId: g.id, name: 'x' } }))
		).toBe(`NOT_FOUND: component group ${g.id} not found`);
		expect(await codeOf(removeComponentGroup({ ctx: mine.ctx, input: { groupId: g.id } }))).toMatch(
			/^NOT_FOUND/
		);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx, page } = await setup();
		const g = await createComponentGroup({ ctx, input: { pageId: page.id, name: 'Core' } });
		expect(await codeOf(updateComponentGroup({ ctx, input: { groupId: g.id, name: '' } }))).toMatch(
			/^VALIDATION/
		);
		expect((await listComponentGroups({ ctx, input: { pageId: page.id } })).data[0].name).toBe(
			'Core'
		);
		expect(
			await db.auditLog.count({ where: { workspaceId: ws.id, entityType: 'component_group' } })
		).toBe(1);
	});
});
