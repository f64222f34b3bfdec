import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import type { SubscriberNotifier, StatusReportEvent } from '../../notify/index.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createPageComponent } from '../page-component/index.ts';
import { createStatusPage } from '../status-page/index.ts';
import {
	addStatusReportUpdate,
	createStatusReport,
	getStatusReport,
	listStatusReports,
	resolveStatusReport,
	updateStatusReport
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const WITH_SUBSCRIBERS = { ...TEAM_LIMITS, 'status-subscribers': true };

async function setup(limits: Record<string, unknown> = WITH_SUBSCRIBERS) {
	const ws = await createWorkspace(db, { limits });
	const ctx = ctxFor(db, ws);
	const page = await createStatusPage({ ctx, input: { title: 'P', slug: `p-${ws.id}` } });
	const api = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'API' }
	});
	const web = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'Web' }
	});
	return { ws, ctx, page, api, web };
}

// A notifier that records what it was asked to send, or throws.
function recorder(opts: { fail?: boolean } = {}) {
	const sent: StatusReportEvent[] = [];
	const notifier: SubscriberNotifier = {
		statusReport: async (e) => {
			if (opts.fail) throw new Error('smtp down');
			sent.push(e);
		},
		maintenance: async () => {}
	};
	return { sent, notifier };
}

describe('status report service', () => {
	it('creates with an initial update and impacts, moves status, edits metadata, resolves; audited', async () => {
		const { ws, ctx, page, api, web } = await setup();
		const { sent, notifier } = recorder();
		const created = await createStatusReport({
			ctx,
			notifier,
			input: {
				pageId: page.id,
				title: 'API errors',
				status: 'investigating',
				message: 'Looking into it',
				pageComponentIds: [api.id],
				impacts: [{ componentId: api.id, impact: 'major_outage' }],
				notify: true
			}
		});
		expect(created).toMatchObject({
			title: 'API errors',
			status: 'investigating',
			pageComponentIds: [api.id],
			resolvedAt: null,
			notified: true,
			updates: [
				{
					status: 'investigating',
					message: 'Looking into it',
					notify: true,
					notified: true,
					impacts: [{ componentId: api.id, impact: 'major_outage' }]
				}
			]
		});
		expect(sent).toEqual([
			expect.objectContaining({
				kind: 'created',
				reportId: created.id,
				updateId: created.updates[0].id,
				componentIds: [api.id]
			})
		]);
		const moved = await addStatusReportUpdate({
			ctx,
			notifier,
			input: {
				reportId: created.id,
				status: 'identified',
				message: 'Bad deploy',
				impacts: [{ componentId: web.id, impact: 'degraded_performance' }],
				notify: false
			}
		});
		expect(moved.status).toBe('identified');
		expect(moved.notified).toBe(false);
		// Web has an impact now, so the report names it.
		expect(moved.pageComponentIds).toEqual([api.id, web.id]);
		expect(moved.updates.map((u) => u.status)).toEqual(['identified', 'investigating']);
		const edited = await updateStatusReport({
			ctx,
			input: { reportId: created.id, title: 'API 5xx', pageComponentIds: [api.id, web.id] }
		});
		expect(edited).toMatchObject({ title: 'API 5xx', pageComponentIds: [api.id, web.id] });
		expect(edited.updates).toHaveLength(2);
		expect(edited).not.toHaveProperty('notified');
		const resolved = await resolveStatusReport({
			ctx,
			notifier,
			input: { reportId: created.id, message: 'Rolled back', notify: true }
		});
		expect(resolved).toMatchObject({ status: 'resolved', notified: true });
		expect(resolved.resolvedAt).not.toBeNull();
		expect(resolved.updates[0]).toMatchObject({ status: 'resolved', message: 'Rolled back' });
		expect(sent.map((e) => e.kind)).toEqual(['created', 'resolved']);
		expect((await getStatusReport({ ctx, input: { reportId: created.id } })).updates).toHaveLength(
			3
		);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'status_report' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => a.action)).toEqual([
			'status_report.create',
			'status_report.add_update',
			'status_report.update',
			'status_report.resolve'
		]);
		expect(audit[0]).toMatchObject({ actorType: 'user', entityId: String(created.id) });
		expect(JSON.parse(audit[1].changedFields)).toEqual(['pageComponentIds', 'status', 'updates']);
		expect(JSON.parse(audit[2].changedFields)).toEqual(['title']);
	});

	it('keeps every component an impact names among the affected ones', async () => {
		const { ws, ctx, page, api, web } = await setup();
		const db3 = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'Email delivery' }
		});
		const { sent, notifier } = recorder();
		// Named only by its impact, on create and on a later update: added to the report.
		const created = await createStatusReport({
			ctx,
			notifier,
			input: {
				pageId: page.id,
				title: 'Billing errors',
				status: 'investigating',
				message: 'Looking into it',
				pageComponentIds: [api.id],
				impacts: [{ componentId: web.id, impact: 'partial_outage' }],
				notify: true
			}
		});
		expect(created.pageComponentIds).toEqual([api.id, web.id]);
		expect(sent[0].componentIds).toEqual([api.id, web.id]);
		const updated = await addStatusReportUpdate({
			ctx,
			input: {
				reportId: created.id,
				status: 'identified',
				message: 'Mail too',
				impacts: [{ componentId: db3.id, impact: 'major_outage' }],
				notify: false
			}
		});
		expect(updated.pageComponentIds).toEqual([api.id, web.id, db3.id]);

		// Removing a component the report still shows as down is refused, with the way out.
		const edit = (ids: number[]) =>
			updateStatusReport({ ctx, input: { reportId: created.id, pageComponentIds: ids } });
		expect(await codeOf(edit([api.id, web.id]))).toBe(
			`VALIDATION: pageComponentIds: 'Email delivery' (component ${db3.id}) is still major_outage in this report: post an update setting it to operational instead of removing it`
		);
		expect(await codeOf(edit([api.id, db3.id]))).toMatch(
			/'Web' \(component \d+\) is still partial_outage/
		);
		// Without an impact (API), or once back to operational (Web), it can go.
		await addStatusReportUpdate({
			ctx,
			input: {
				reportId: created.id,
				status: 'monitoring',
				message: 'Web is fine',
				impacts: [{ componentId: web.id, impact: 'operational' }],
				notify: false
			}
		});
		expect((await edit([db3.id])).pageComponentIds).toEqual([db3.id]);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'status_report' }
		});
		expect(audit).toHaveLength(4);
	});

	it('lists newest first, active by default, with pagination', async () => {
		const { ctx, page } = await setup();
		const make = (title: string) =>
			createStatusReport({
				ctx,
				input: { pageId: page.id, title, status: 'investigating', message: 'm', notify: false }
			});
		const a = await make('a');
		const b = await make('b');
		const c = await make('c');
		await resolveStatusReport({ ctx, input: { reportId: b.id, message: 'done', notify: false } });
		const active = await listStatusReports({ ctx });
		expect(active.data.map((r) => r.id)).toEqual([c.id, a.id]);
		expect(active.pagination).toEqual({ page: 1, perPage: 50, totalSize: 2, totalPages: 1 });
		const all = await listStatusReports({ ctx, input: { filter: 'all', page: 2, perPage: 2 } });
		expect(all.data.map((r) => r.id)).toEqual([a.id]);
		expect(all.pagination).toEqual({ page: 2, perPage: 2, totalSize: 3, totalPages: 2 });
		expect(await codeOf(listStatusReports({ ctx, input: { perPage: 201 } }))).toMatch(
			/^VALIDATION: perPage/
		);
	});

	describe('publishing rules (spec 4.1)', () => {
		it('rejects a publishing call without notify', async () => {
			const { ctx, page } = await setup();
			expect(
				await codeOf(
					createStatusReport({
						ctx,
						input: { pageId: page.id, title: 't', status: 'investigating', message: 'm' } as never
					})
				)
			).toMatch(/^VALIDATION: notify/);
			expect(
				await codeOf(resolveStatusReport({ ctx, input: { reportId: 1, message: 'm' } as never }))
			).toMatch(/^VALIDATION: notify/);
		});

		it('keeps the row and answers notified: false when dispatch throws', async () => {
			const { ws, ctx, page } = await setup();
			const { notifier } = recorder({ fail: true });
			const report = await createStatusReport({
				ctx,
				notifier,
				input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: true }
			});
			expect(report.notified).toBe(false);
			const stored = await db.statusReportUpdate.findFirstOrThrow({
				where: { reportId: report.id }
			});
			expect(stored).toMatchObject({ notify: true, notified: false });
			expect(await db.statusReport.count({ where: { workspaceId: ws.id } })).toBe(1);
			const added = await addStatusReportUpdate({
				ctx,
				notifier,
				input: { reportId: report.id, status: 'monitoring', message: 'm2', notify: true }
			});
			expect(added).toMatchObject({ status: 'monitoring', notified: false });
		});

		it('answers notified: true without dispatching when the plan lacks status-subscribers', async () => {
			const { ctx, page } = await setup(TEAM_LIMITS);
			const { notifier } = recorder({ fail: true });
			const report = await createStatusReport({
				ctx,
				notifier,
				input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: true }
			});
			expect(report.notified).toBe(true);
		});

		it('never notifies an update created with notify: false, even when a later one is', async () => {
			const { ctx, page } = await setup();
			const { sent, notifier } = recorder();
			const report = await createStatusReport({
				ctx,
				notifier,
				input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: false }
			});
			expect(report.notified).toBe(false);
			expect(sent).toEqual([]);
			const later = await addStatusReportUpdate({
				ctx,
				notifier,
				input: { reportId: report.id, status: 'identified', message: 'm2', notify: true }
			});
			expect(sent.map((e) => e.updateId)).toEqual([later.updates[0].id]);
			const first = await db.statusReportUpdate.findUniqueOrThrow({
				where: { id: report.updates[0].id }
			});
			expect(first).toMatchObject({ notify: false, notified: false });
		});

		it('has no notify path on update_status_report', async () => {
			const { ctx, page } = await setup();
			const { sent, notifier } = recorder();
			const report = await createStatusReport({
				ctx,
				notifier,
				input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: false }
			});
			expect(
				await codeOf(
					updateStatusReport({ ctx, input: { reportId: report.id, notify: true } as never })
				)
			).toMatch(/^VALIDATION/);
			await updateStatusReport({ ctx, input: { reportId: report.id, title: 'renamed' } });
			expect(sent).toEqual([]);
		});

		it('moves between open statuses without a public update, never resolves or reopens', async () => {
			const { ctx, page } = await setup();
			const report = await createStatusReport({
				ctx,
				input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: false }
			});
			const refusal = (current: string) =>
				`VALIDATION: status: resolving or reopening posts a public update: use resolve_status_report or add_status_report_update; this edit keeps '${current}'`;
			expect(
				await codeOf(
					updateStatusReport({ ctx, input: { reportId: report.id, status: 'resolved' } })
				)
			).toBe(refusal('investigating'));
			const moved = await updateStatusReport({
				ctx,
				input: { reportId: report.id, status: 'monitoring' }
			});
			expect(moved).toMatchObject({ status: 'monitoring', resolvedAt: null });
			expect(moved.updates).toHaveLength(1);
			await updateStatusReport({ ctx, input: { reportId: report.id, status: 'investigating' } });
			const open = await getStatusReport({ ctx, input: { reportId: report.id } });
			expect(open).toMatchObject({ status: 'investigating', resolvedAt: null, title: 't' });
			expect(open.updates).toHaveLength(1);
			// Repeating the current status is a plain metadata edit (clients may echo the record).
			const same = await updateStatusReport({
				ctx,
				input: { reportId: report.id, status: 'investigating', title: 'renamed' }
			});
			expect(same).toMatchObject({ status: 'investigating', title: 'renamed' });
			const resolved = await resolveStatusReport({
				ctx,
				input: { reportId: report.id, message: 'done', notify: false }
			});
			expect(
				await codeOf(
					updateStatusReport({ ctx, input: { reportId: report.id, status: 'investigating' } })
				)
			).toBe(refusal('resolved'));
			const after = await getStatusReport({ ctx, input: { reportId: report.id } });
			expect(after).toMatchObject({ status: 'resolved', resolvedAt: resolved.resolvedAt });
			expect(after.updates).toHaveLength(2);
		});
	});

	it('rejects read-only key', async () => {
		const { ws, ctx, page } = await setup();
		const ro = ctxFor(db, ws, readKey());
		const report = await createStatusReport({
			ctx,
			input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: false }
		});
		const attempts = [
			createStatusReport({
				ctx: ro,
				input: { pageId: page.id, title: 't', status: 'investigating', message: 'm', notify: false }
			}),
			addStatusReportUpdate({
				ctx: ro,
				input: { reportId: report.id, status: 'identified', message: 'm', notify: false }
			}),
			updateStatusReport({ ctx: ro, input: { reportId: report.id, title: 'x' } }),
			resolveStatusReport({ ctx: ro, input: { reportId: report.id, message: 'm', notify: false } })
		];
		for (const attempt of attempts) expect(await codeOf(attempt)).toMatch(/^FORBIDDEN/);
		expect((await listStatusReports({ ctx: ro })).data).toHaveLength(1);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = await setup();
		const theirs = await setup();
		expect(
			await codeOf(
				createStatusReport({
					ctx: mine.ctx,
					input: {
						pageId: theirs.page.id,
						title: 't',
						status: 'investigating',
						message: 'm',
						notify: false
					}
				})
			)
		).toBe(`NOT_FOUND: status page ${theirs.page.id} not found`);
		// A component of another page (even another tenant's) is not on the given page.
		expect(
			await codeOf(
				createStatusReport({
					ctx: mine.ctx,
					input: {
						pageId: mine.page.id,
						title: 't',
						status: 'investigating',
						message: 'm',
						pageComponentIds: [mine.api.id, theirs.api.id],
						notify: false
					}
				})
			)
		).toBe(`NOT_FOUND: page component ${theirs.api.id} not found`);
		const theirReport = await createStatusReport({
			ctx: theirs.ctx,
			input: {
				pageId: theirs.page.id,
				title: 't',
				status: 'investigating',
				message: 'm',
				notify: false
			}
		});
		const notFound = `NOT_FOUND: status report ${theirReport.id} not found`;
		expect(
			await codeOf(getStatusReport({ ctx: mine.ctx, input: { reportId: theirReport.id } }))
		).toBe(notFound);
		expect(
			await codeOf(
				resolveStatusReport({
					ctx: mine.ctx,
					input: { reportId: theirReport.id, message: 'm', notify: false }
				})
			)
		).toBe(notFound);
		expect(
			await codeOf(
				updateStatusReport({ ctx: mine.ctx, input: { reportId: theirReport.id, title: 'x' } })
			)
		).toBe(notFound);
		const mineReport = await createStatusReport({
			ctx: mine.ctx,
			input: {
				pageId: mine.page.id,
				title: 't',
				status: 'investigating',
				message: 'm',
				notify: false
			}
		});
		expect(
			await codeOf(
				addStatusReportUpdate({
					ctx: mine.ctx,
					input: {
						reportId: mineReport.id,
						status: 'identified',
						message: 'm',
						impacts: [{ componentId: theirs.web.id, impact: 'partial_outage' }],
						notify: false
					}
				})
			)
		).toBe(`NOT_FOUND: page component ${theirs.web.id} not found`);
		expect(
			(await listStatusReports({ ctx: mine.ctx, input: { filter: 'all' } })).data
		).toHaveLength(1);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx, page } = await setup();
		const other = await setup();
		expect(
			await codeOf(
				createStatusReport({
					ctx,
					input: {
						pageId: page.id,
						title: 't',
						status: 'investigating',
						message: 'm',
						impacts: [{ componentId: other.api.id, impact: 'major_outage' }],
						notify: true
					}
				})
			)
		).toMatch(/^NOT_FOUND: page component/);
		expect(
			await codeOf(
				createStatusReport({
					ctx,
					input: {
						pageId: page.id,
						title: '',
						status: 'resolved',
						message: 'm',
						notify: true
					} as never
				})
			)
		).toMatch(/^VALIDATION/);
		expect(await db.statusReport.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(await db.statusReportUpdate.count({ where: { report: { workspaceId: ws.id } } })).toBe(
			0
		);
		expect(
			await db.auditLog.count({ where: { workspaceId: ws.id, entityType: 'status_report' } })
		).toBe(0);
	});
});
