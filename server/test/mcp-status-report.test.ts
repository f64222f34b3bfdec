import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstate } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createNoopNotifier, type SubscriberNotifier } from '../src/notify/index.ts';
import { createTestDb } from './db.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from './factories.ts';
import { twoPages } from './pages.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// The publishing tools of spec 4.1 over real HTTP with the official SDK client.
let db: Db;
let upstate: Upstate;
let api: Awaited<ReturnType<typeof startApi>>;
let writeKey: string;
let readKey: string;
let freeKey: string; // a workspace whose plan lacks status-subscribers
let pageId: number;
let componentId: number;
let otherPageComponentId: number;
let freePageId: number;
const sent: string[] = [];

const recording: SubscriberNotifier = {
	statusReport: async (e) => void sent.push(`report:${e.kind}:${e.updateId}`),
	maintenance: async (e) => void sent.push(`maintenance:${e.maintenanceId}`)
};
const throwing: SubscriberNotifier = {
	statusReport: async () => {
		throw new Error('smtp down');
	},
	maintenance: async () => {
		throw new Error('smtp down');
	}
};

beforeAll(async () => {
	({ db } = await createTestDb());
	upstate = createTestUpstate(db);
	api = await startApi(upstate);
	const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'status-subscribers': true } });
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
	const ctx = ctxFor(db, ws);
	({ pageId, componentId, otherPageComponentId } = await twoPages(ctx));
	const free = await createWorkspace(db);
	freeKey = await issueKey(db, free, 'write');
	freePageId = (
		await createStatusPage({ ctx: ctxFor(db, free), input: { title: 'F', slug: `f-${free.id}` } })
	).id;
});
afterAll(() => api.close());

async function connect(key: string): Promise<Client> {
	const client = new Client({ name: 'test', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
			requestInit: { headers: { 'x-service-key': key } }
		})
	);
	return client;
}

async function withClient<T>(key: string, fn: (c: Client) => Promise<T>): Promise<T> {
	const client = await connect(key);
	try {
		return await fn(client);
	} finally {
		await client.close();
	}
}

type Report = {
	id: number;
	status: string;
	notified: boolean;
	updates: Array<{ id: number; notify: boolean; notified: boolean }>;
};
// safe because these tools' output schema is the published report
const report = (r: Record<string, unknown>) => r.structuredContent as Report;
const newReport = (notify: boolean, extra: Record<string, unknown> = {}) => ({
	pageId,
	title: 'API errors',
	status: 'investigating',
	message: 'Looking into it',
	notify,
	...extra
});

const PUBLISHING = [
	'create_status_report',
	'add_status_report_update',
	'resolve_status_report',
	'create_maintenance'
];

describe('MCP status report and maintenance tools', () => {
	it('lists the tools with annotations; a read-only key sees only the list tools', async () => {
		const tools = await withClient(writeKey, async (c) => (await c.listTools()).tools);
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		for (const name of PUBLISHING) {
			expect(byName[name].annotations).toEqual({
				readOnlyHint: false,
				destructiveHint: false,
				idempotentHint: false
			});
			expect(byName[name].inputSchema.required).toContain('notify');
			expect(byName[name].inputSchema.properties?.notify).toEqual({ type: 'boolean' });
		}
		expect(byName.update_status_report.annotations).toEqual({
			readOnlyHint: false,
			destructiveHint: false,
			idempotentHint: true
		});
		expect(byName.update_status_report.inputSchema.properties).not.toHaveProperty('notify');
		for (const name of ['list_status_reports', 'list_maintenances'])
			expect(byName[name].annotations).toEqual({
				readOnlyHint: true,
				destructiveHint: false,
				idempotentHint: true
			});
		const readTools = await withClient(readKey, async (c) => (await c.listTools()).tools);
		const readNames = readTools.map((t) => t.name);
		expect(readNames).toEqual(expect.arrayContaining(['list_status_reports', 'list_maintenances']));
		for (const name of [...PUBLISHING, 'update_status_report'])
			expect(readNames).not.toContain(name);
	});

	it('refuses a publishing call from a read-only key in the service layer too', async () => {
		await withClient(readKey, async (c) => {
			await expect(
				c.callTool({ name: 'create_status_report', arguments: newReport(false) })
			).rejects.toThrow(/FORBIDDEN/);
		});
		expect(await db.statusReport.count({ where: { pageId } })).toBe(0);
	});

	it('rejects a publishing call without notify at the input schema', async () => {
		await withClient(writeKey, async (c) => {
			const { notify: _n, ...withoutNotify } = newReport(true);
			await expect(
				c.callTool({ name: 'create_status_report', arguments: withoutNotify })
			).rejects.toThrow(/invalid arguments for create_status_report: notify/);
		});
		expect(await db.statusReport.count({ where: { pageId } })).toBe(0);
	});

	it('creates, updates, edits and resolves a report; dispatches only notify: true updates; audits as mcp', async () => {
		upstate.notify = recording;
		await withClient(writeKey, async (c) => {
			const created = report(
				await c.callTool({
					name: 'create_status_report',
					arguments: newReport(false, { pageComponentIds: [componentId] })
				})
			);
			expect(created).toMatchObject({ status: 'investigating', notified: false });
			const moved = report(
				await c.callTool({
					name: 'add_status_report_update',
					arguments: {
						reportId: created.id,
						status: 'identified',
						message: 'Bad deploy',
						impacts: [{ componentId, impact: 'partial_outage' }],
						notify: true
					}
				})
			);
			expect(moved).toMatchObject({ status: 'identified', notified: true });
			const edited = await c.callTool({
				name: 'update_status_report',
				arguments: { reportId: created.id, title: 'API 5xx' }
			});
			expect(edited.structuredContent).toMatchObject({ title: 'API 5xx' });
			expect(edited.structuredContent).not.toHaveProperty('notified');
			const sneaky = await c.callTool({
				name: 'update_status_report',
				arguments: { reportId: created.id, status: 'resolved' }
			});
			expect(sneaky.isError).toBe(true);
			expect(sneaky.content).toEqual([
				{
					type: 'text',
					text: "VALIDATION: status: resolving or reopening posts a public update: use resolve_status_report or add_status_report_update; this edit keeps 'identified'"
				}
			]);
			await expect(
				c.callTool({
					name: 'update_status_report',
					arguments: { reportId: created.id, notify: true }
				})
			).rejects.toThrow(/invalid arguments for update_status_report/);
			const resolved = report(
				await c.callTool({
					name: 'resolve_status_report',
					arguments: { reportId: created.id, message: 'Rolled back', notify: true }
				})
			);
			expect(resolved).toMatchObject({ status: 'resolved', notified: true });
			// Only the two notify: true updates were dispatched; the first never will be.
			expect(sent).toEqual([
				`report:updated:${moved.updates[0].id}`,
				`report:resolved:${resolved.updates[0].id}`
			]);
			expect(resolved.updates.at(-1)).toMatchObject({ notify: false, notified: false });
			const audit = await db.auditLog.findMany({
				where: { entityType: 'status_report', entityId: String(created.id) },
				orderBy: { id: 'asc' }
			});
			expect(audit.map((a) => [a.action, a.actorType])).toEqual([
				['status_report.create', 'mcp'],
				['status_report.add_update', 'mcp'],
				['status_report.update', 'mcp'],
				['status_report.resolve', 'mcp']
			]);
			expect(audit[0].actorId).toMatch(/^key_\d+$/);
		});
		upstate.notify = createNoopNotifier();
	});

	it('keeps the row and answers notified: false when dispatch throws', async () => {
		upstate.notify = throwing;
		await withClient(writeKey, async (c) => {
			const created = report(
				await c.callTool({ name: 'create_status_report', arguments: newReport(true) })
			);
			expect(created.notified).toBe(false);
			expect(
				await db.statusReportUpdate.findFirstOrThrow({ where: { reportId: created.id } })
			).toMatchObject({ notify: true, notified: false });
			const maintenance = await c.callTool({
				name: 'create_maintenance',
				arguments: {
					pageId,
					title: 'DB upgrade',
					from: '2026-12-01T02:00:00Z',
					to: '2026-12-01T04:00:00Z',
					notify: true
				}
			});
			expect(maintenance.structuredContent).toMatchObject({ notified: false });
		});
		upstate.notify = createNoopNotifier();
	});

	it('answers notified: true without dispatching when the plan lacks status-subscribers', async () => {
		upstate.notify = throwing;
		await withClient(freeKey, async (c) => {
			const created = report(
				await c.callTool({
					name: 'create_status_report',
					arguments: { ...newReport(true), pageId: freePageId }
				})
			);
			expect(created.notified).toBe(true);
		});
		upstate.notify = createNoopNotifier();
	});

	it('answers NOT_FOUND for a component of another page as a tool result; rejects to before from', async () => {
		await withClient(writeKey, async (c) => {
			const wrongPage = await c.callTool({
				name: 'create_status_report',
				arguments: newReport(false, { pageComponentIds: [otherPageComponentId] })
			});
			expect(wrongPage.isError).toBe(true);
			expect(wrongPage.content).toEqual([
				{ type: 'text', text: `NOT_FOUND: page component ${otherPageComponentId} not found` }
			]);
			// A cross-field rule is a domain VALIDATION (spec 7.1): a tool result the model can fix.
			const reversed = await c.callTool({
				name: 'create_maintenance',
				arguments: {
					pageId,
					title: 'x',
					from: '2026-12-01T04:00:00Z',
					to: '2026-12-01T02:00:00Z',
					notify: false
				}
			});
			expect(reversed).toMatchObject({
				isError: true,
				content: [{ type: 'text', text: 'VALIDATION: to: End date must be after start date.' }]
			});
		});
	});

	it('lists reports (active by default) and maintenances newest first with pagination', async () => {
		await withClient(readKey, async (c) => {
			const active = (await c.callTool({ name: 'list_status_reports', arguments: {} }))
				.structuredContent as { data: Report[]; pagination: Record<string, number> };
			expect(active.data.every((r) => r.status !== 'resolved')).toBe(true);
			const all = (
				await c.callTool({ name: 'list_status_reports', arguments: { filter: 'all', perPage: 1 } })
			).structuredContent as { data: Report[]; pagination: Record<string, number> };
			expect(all.pagination).toEqual({
				page: 1,
				perPage: 1,
				totalSize: active.pagination.totalSize + 1,
				totalPages: active.pagination.totalSize + 1
			});
			const maintenances = (await c.callTool({ name: 'list_maintenances', arguments: {} }))
				.structuredContent as { data: unknown[]; pagination: Record<string, number> };
			expect(maintenances.pagination).toEqual({
				page: 1,
				perPage: 50,
				totalSize: 1,
				totalPages: 1
			});
		});
	});
});
