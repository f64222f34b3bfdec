import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createApiKey } from '../src/domain/api-key/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { TEAM_LIMITS, createUser, createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, startApi } from './upstate.ts';

// The audit tools of spec 4.1 over real HTTP with the official SDK client.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let writeKey: { id: number; key: string; created_by_id: number | null };
let readKey: string;
let plainKey: string; // a workspace whose plan lacks audit-log
let pageId: number;

async function issue(workspace: typeof ws, scope: 'read' | 'write') {
	const owner = await createUser(db);
	return createApiKey({
		ctx: ctxFor(db, workspace, { type: 'user', userId: owner.id, role: 'owner' }),
		input: { name: `${scope} key`, scope }
	});
}

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	ws = await createWorkspace(db, {
		limits: { ...TEAM_LIMITS, 'audit-log': true, 'password-protection': true }
	});
	writeKey = await issue(ws, 'write');
	readKey = (await issue(ws, 'read')).key;
	plainKey = (await issue(await createWorkspace(db), 'write')).key;
	pageId = (
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Acme', slug: `acme-${ws.id}` } })
	).id;
});
afterAll(() => api.close());

async function withClient<T>(key: string, fn: (c: Client) => Promise<T>): Promise<T> {
	const client = new Client({ name: 'test', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
			requestInit: { headers: { 'x-service-key': key } }
		})
	);
	try {
		return await fn(client);
	} finally {
		await client.close();
	}
}

type Entry = {
	id: number;
	action: string;
	actor_type: string;
	actor_id: string;
	actor_user_id: number | null;
	entity_type: string;
	entity_id: string;
	changedFields: string[];
	before: Record<string, unknown> | null;
	after: Record<string, unknown> | null;
};
const entries = (r: Awaited<ReturnType<Client['callTool']>>) =>
	(r.structuredContent as { data: Entry[] }).data;

const rest = (method: string, path: string, body: unknown) =>
	fetch(`${api.url}${path}`, {
		method,
		headers: { 'x-service-key': writeKey.key, 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});

describe('MCP audit tools', () => {
	it('lists both audit tools with read annotations only when the plan has audit-log', async () => {
		const withFeature = await withClient(writeKey.key, (c) => c.listTools());
		const without = await withClient(plainKey, (c) => c.listTools());
		const readOnly = await withClient(readKey, (c) => c.listTools());
		const names = (r: typeof withFeature) => r.tools.map((t) => t.name);
		expect(names(withFeature)).toHaveLength(19);
		expect(names(without)).toHaveLength(17);
		expect(
			names(withFeature)
				.filter((n) => !names(without).includes(n))
				.sort()
		).toEqual(['get_audit_log', 'list_audit_logs']);
		expect(names(readOnly)).toEqual(expect.arrayContaining(['list_audit_logs', 'get_audit_log']));
		const byName = Object.fromEntries(withFeature.tools.map((t) => [t.name, t]));
		for (const name of ['list_audit_logs', 'get_audit_log'])
			expect(byName[name].annotations).toEqual({
				readOnlyHint: true,
				destructiveHint: false,
				idempotentHint: true
			});
		expect(byName.get_audit_log.inputSchema.required).toEqual(['auditLogId']);
		expect(Object.keys(byName.list_audit_logs.inputSchema.properties ?? {}).sort()).toEqual([
			'entityId',
			'entityType',
			'page',
			'perPage'
		]);
	});

	it('answers LIMIT_EXCEEDED as a tool result when called without the plan feature', async () => {
		await withClient(plainKey, async (c) => {
			for (const [name, args] of [
				['list_audit_logs', {}],
				['get_audit_log', { auditLogId: 1 }]
			] as const) {
				const res = await c.callTool({ name, arguments: args });
				expect(res.isError).toBe(true);
				expect(res.content).toEqual([
					{ type: 'text', text: "LIMIT_EXCEEDED: your plan does not include 'audit-log'" }
				]);
			}
		});
	});

	it('records an MCP mutation as actor_type mcp with the key id and its creator', async () => {
		await withClient(writeKey.key, async (c) => {
			const created = await c.callTool({
				name: 'create_status_report',
				arguments: {
					pageId,
					title: 'DB down',
					status: 'investigating',
					message: 'm',
					notify: false
				}
			});
			const reportId = (created.structuredContent as { id: number }).id;
			const listed = await c.callTool({
				name: 'list_audit_logs',
				arguments: { entityType: 'status_report', entityId: String(reportId) }
			});
			expect(entries(listed)).toEqual([
				expect.objectContaining({
					action: 'status_report.create',
					actor_type: 'mcp',
					actor_id: `key_${writeKey.id}`,
					actor_user_id: writeKey.created_by_id,
					entity_type: 'status_report',
					entity_id: String(reportId)
				})
			]);
			const got = await c.callTool({
				name: 'get_audit_log',
				arguments: { auditLogId: entries(listed)[0].id }
			});
			expect(got.structuredContent).toMatchObject({
				before: null,
				after: { id: reportId, title: 'DB down' }
			});
		});
	});

	it('never returns a secret in get_audit_log snapshots', async () => {
		const location = (await (
			await rest('POST', '/v1/private-locations', { name: 'Office' })
		).json()) as { id: number; token: string };
		expect(location.token).toMatch(/^usp_/);
		const page = (await (
			await rest('POST', '/v1/status-pages', {
				title: 'Locked',
				slug: `locked-${ws.id}`,
				access_type: 'password',
				password: 'correct horse battery'
			})
		).json()) as { id: number };
		expect(page.id).toBeGreaterThan(0);
		await withClient(readKey, async (c) => {
			const listed = entries(await c.callTool({ name: 'list_audit_logs', arguments: {} }));
			const wanted = listed.filter((e) =>
				['private_location.create', 'status_page.create', 'api_key.create'].includes(e.action)
			);
			expect(wanted.map((e) => e.action).sort()).toEqual([
				'api_key.create',
				'api_key.create',
				'private_location.create',
				'status_page.create', // Acme, made in beforeAll
				'status_page.create'
			]);
			for (const e of wanted) {
				const got = await c.callTool({ name: 'get_audit_log', arguments: { auditLogId: e.id } });
				expect(got.isError).toBeFalsy();
				const text = JSON.stringify(got.structuredContent);
				for (const secret of [location.token, 'correct horse battery', writeKey.key, readKey])
					expect(text).not.toContain(secret);
				expect(text).not.toMatch(/"(token|password|passwordHash|keyHash)":/);
			}
		});
	});
});
