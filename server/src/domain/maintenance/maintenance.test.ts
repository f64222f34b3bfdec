import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import type { MaintenanceEvent, SubscriberNotifier } from '../../notify/index.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createPageComponent } from '../page-component/index.ts';
import { createStatusPage } from '../status-page/index.ts';
import {
	createMaintenance,
	getMaintenance,
	listMaintenances,
	removeMaintenance,
	updateMaintenance
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

async function setup(
	limits: Record<string, unknown> = { ...TEAM_LIMITS, 'status-subscribers': true }
) {
	const ws = await createWorkspace(db, { limits });
	const ctx = ctxFor(db, ws);
	const page = await createStatusPage({ ctx, input: { title: 'P', slug: `p-${ws.id}` } });
	const component = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'API' }
	});
	return { ws, ctx, page, component };
}

const window = { from: '2026-12-01T02:00:00Z', to: '2026-12-01T04:00:00+00:00' };

function recorder(opts: { fail?: boolean } = {}) {
	const sent: MaintenanceEvent[] = [];
	const notifier: SubscriberNotifier = {
		statusReport: async () => {},
		maintenance: async (e) => {
			if (opts.fail) throw new Error('smtp down');
			sent.push(e);
		}
	};
	return { sent, notifier };
}

describe('maintenance service', () => {
	it('creates, updates, lists, gets and removes a window, with audit', async () => {
		const { ws, ctx, page, component } = await setup();
		const { sent, notifier } = recorder();
		const created = await createMaintenance({
			ctx,
			notifier,
			input: {
				pageId: page.id,
				title: 'DB upgrade',
				...window,
				pageComponentIds: [component.id],
				notify: true
			}
		});
		expect(created).toMatchObject({
			title: 'DB upgrade',
			from: '2026-12-01T02:00:00.000Z',
			to: '2026-12-01T04:00:00.000Z',
			pageComponentIds: [component.id],
			notify: true,
			notified: true
		});
		expect(sent).toEqual([
			expect.objectContaining({ kind: 'scheduled', maintenanceId: created.id })
		]);
		const second = await createMaintenance({
			ctx,
			input: { pageId: page.id, title: 'Later', ...window, notify: false }
		});
		expect(second.notified).toBe(false);
		const updated = await updateMaintenance({
			ctx,
			input: { maintenanceId: created.id, to: '2026-12-01T05:00:00Z', pageComponentIds: [] }
		});
		expect(updated).toMatchObject({ to: '2026-12-01T05:00:00.000Z', pageComponentIds: [] });
		const list = await listMaintenances({ ctx, input: { perPage: 1 } });
		expect(list.data.map((m) => m.id)).toEqual([second.id]);
		expect(list.pagination).toEqual({ page: 1, perPage: 1, totalSize: 2, totalPages: 2 });
		expect((await getMaintenance({ ctx, input: { maintenanceId: created.id } })).title).toBe(
			'DB upgrade'
		);
		await removeMaintenance({ ctx, input: { maintenanceId: second.id } });
		expect((await listMaintenances({ ctx })).data.map((m) => m.id)).toEqual([created.id]);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'maintenance' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => a.action)).toEqual([
			'maintenance.create',
			'maintenance.create',
			'maintenance.update',
			'maintenance.delete'
		]);
		expect(JSON.parse(audit[2].changedFields)).toEqual(['pageComponentIds', 'to']);
	});

	it('puts the to-before-from error on the to field, also for a partial update', async () => {
		const { ctx, page } = await setup();
		const err = await createMaintenance({
			ctx,
			input: { pageId: page.id, title: 't', from: window.to, to: window.from, notify: false }
		}).catch((e: unknown) => e);
		expect(err).toMatchObject({
			code: 'VALIDATION',
			issues: [{ path: 'to', message: 'End date must be after start date.' }]
		});
		expect(
			await codeOf(
				createMaintenance({
					ctx,
					input: { pageId: page.id, title: 't', from: 'tomorrow', to: window.to, notify: false }
				})
			)
		).toMatch(/^VALIDATION: from/);
		const m = await createMaintenance({
			ctx,
			input: { pageId: page.id, title: 't', ...window, notify: false }
		});
		expect(
			await codeOf(
				updateMaintenance({ ctx, input: { maintenanceId: m.id, to: '2026-11-30T00:00:00Z' } })
			)
		).toBe('VALIDATION: to: End date must be after start date.');
	});

	it('follows the publishing rules: notify required, dispatch failure keeps the row, plan no-op', async () => {
		const { ws, ctx, page } = await setup();
		expect(
			await codeOf(
				createMaintenance({ ctx, input: { pageId: page.id, title: 't', ...window } as never })
			)
		).toMatch(/^VALIDATION: notify/);
		const failed = await createMaintenance({
			ctx,
			notifier: recorder({ fail: true }).notifier,
			input: { pageId: page.id, title: 't', ...window, notify: true }
		});
		expect(failed.notified).toBe(false);
		expect(await db.maintenance.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
			notify: true,
			notified: false
		});
		expect(await db.maintenance.count({ where: { workspaceId: ws.id } })).toBe(1);
		const free = await setup(TEAM_LIMITS);
		const silent = await createMaintenance({
			ctx: free.ctx,
			notifier: recorder({ fail: true }).notifier,
			input: { pageId: free.page.id, title: 't', ...window, notify: true }
		});
		expect(silent.notified).toBe(true);
	});

	it("answers LIMIT_EXCEEDED naming 'maintenance' when the plan lacks it", async () => {
		const { ctx, page } = await setup({ ...TEAM_LIMITS, maintenance: false });
		expect(
			await codeOf(
				createMaintenance({ ctx, input: { pageId: page.id, title: 't', ...window, notify: false } })
			)
		).toBe("LIMIT_EXCEEDED: your plan does not include 'maintenance'");
	});

	it('rejects read-only key', async () => {
		const { ws, ctx, page } = await setup();
		const ro = ctxFor(db, ws, readKey());
		const m = await createMaintenance({
			ctx,
			input: { pageId: page.id, title: 't', ...window, notify: false }
		});
		for (const attempt of [
			createMaintenance({
				ctx: ro,
				input: { pageId: page.id, title: 't', ...window, notify: false }
			}),
			updateMaintenance({ ctx: ro, input: { maintenanceId: m.id, title: 'x' } }),
			removeMaintenance({ ctx: ro, input: { maintenanceId: m.id } })
		])
			expect(await codeOf(attempt)).toMatch(/^FORBIDDEN/);
		expect((await listMaintenances({ ctx: ro })).data).toHaveLength(1);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await setup();
		const theirs = await setup();
		expect(
			await codeOf(
				createMaintenance({
					ctx: mine.ctx,
					input: { pageId: theirs.page.id, title: 't', ...window, notify: false }
				})
			)
		).toBe(`NOT_FOUND: status page ${theirs.page.id} not found`);
		expect(
			await codeOf(
				createMaintenance({
					ctx: mine.ctx,
					input: {
						pageId: mine.page.id,
						title: 't',
						...window,
						pageComponentIds: [theirs.component.id],
						notify: false
					}
				})
			)
		).toBe(`NOT_FOUND: page component ${theirs.component.id} not found`);
		const theirs1 = await createMaintenance({
			ctx: theirs.ctx,
			input: { pageId: theirs.page.id, title: 't', ...window, notify: false }
		});
		const notFound = `NOT_FOUND: maintenance ${theirs1.id} not found`;
		expect(
			await codeOf(getMaintenance({ ctx: mine.ctx, input: { maintenanceId: theirs1.id } }))
		).toBe(notFound);
		expect(
			await codeOf(
				updateMaintenance({ ctx: mine.ctx, input: { maintenanceId: theirs1.id, title: 'x' } })
			)
		).toBe(notFound);
		expect(
			await codeOf(removeMaintenance({ ctx: mine.ctx, input: { maintenanceId: theirs1.id } }))
		).toBe(notFound);
		expect((await listMaintenances({ ctx: mine.ctx })).data).toEqual([]);
		expect(
			await codeOf(listMaintenances({ ctx: mine.ctx, input: { pageId: theirs.page.id } }))
		).toBe(`NOT_FOUND: status page ${theirs.page.id} not found`);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx, page } = await setup();
		const other = await setup();
		expect(
			await codeOf(
				createMaintenance({
					ctx,
					input: {
						pageId: page.id,
						title: 't',
						...window,
						pageComponentIds: [other.component.id],
						notify: true
					}
				})
			)
		).toMatch(/^NOT_FOUND: page component/);
		expect(await db.maintenance.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(
			await db.auditLog.count({ where: { workspaceId: ws.id, entityType: 'maintenance' } })
		).toBe(0);
	});
});
