import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstate } from '../src/app.ts';
import { callerForSession } from '../src/auth/context.ts';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { TEAM_LIMITS, createUser, createWorkspace } from './factories.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

// GET /v1/audit-logs over real HTTP, and the dashboard's in-process caller as the user actor.
let db: Db;
let upstate: Upstate;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let writeKey: string;
let readKey: string;

beforeAll(async () => {
	({ db } = await createTestDb());
	upstate = createTestUpstate(db);
	api = await startApi(upstate);
	ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'audit-log': true } });
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
});
afterAll(() => api.close());

const call = (method: string, path: string, key: string, body?: unknown) =>
	fetch(`${api.url}${path}`, {
		method,
		headers: { 'x-service-key': key, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
const monitor = { type: 'http', name: 'API', periodicity: '1m', url: 'https://example.com/health' };

type Page = {
	data: Array<{ id: number; action: string; actor_type: string; entity_id: string }>;
	pagination: { page: number; perPage: number; totalSize: number; totalPages: number };
};

describe('REST v1 audit log', () => {
	it('lists REST writes newest first with the key as actor, filters, and gets one', async () => {
		const { id } = (await (await call('POST', '/v1/monitors', writeKey, monitor)).json()) as {
			id: number;
		};
		await call('PATCH', `/v1/monitors/${id}`, writeKey, { name: 'API v2' });
		const res = await call('GET', `/v1/audit-logs?entityType=monitor&entityId=${id}`, readKey);
		expect(res.status).toBe(200);
		const page = (await res.json()) as Page;
		expect(page.data.map((e) => [e.action, e.actor_type, e.entity_id])).toEqual([
			['monitor.update', 'apiKey', String(id)],
			['monitor.create', 'apiKey', String(id)]
		]);
		expect(page.pagination).toEqual({ page: 1, perPage: 50, totalSize: 2, totalPages: 1 });
		const all = (await (await call('GET', '/v1/audit-logs?perPage=1', readKey)).json()) as Page;
		expect(all.data).toHaveLength(1);
		expect(all.pagination.totalSize).toBeGreaterThanOrEqual(4); // two keys, create, update
		const one = await call('GET', `/v1/audit-logs/${page.data[0].id}`, readKey);
		expect(await one.json()).toMatchObject({
			id: page.data[0].id,
			changedFields: ['name'],
			before: { name: 'API' },
			after: { name: 'API v2' }
		});
	});

	it('answers 404 for another workspace entry, 403 without the plan feature, 400 past 50', async () => {
		const other = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'audit-log': true } });
		const otherKey = await issueKey(db, other, 'write');
		const [theirs] = ((await (await call('GET', '/v1/audit-logs', otherKey)).json()) as Page).data;
		const res = await call('GET', `/v1/audit-logs/${theirs.id}`, readKey);
		expect(res.status).toBe(404);
		expect(await res.json()).toEqual(errorBody.notFound(`audit log entry ${theirs.id} not found`));

		const plainKey = await issueKey(db, await createWorkspace(db), 'read');
		const gated = await call('GET', '/v1/audit-logs', plainKey);
		expect(gated.status).toBe(403);
		expect(await gated.json()).toEqual({
			error: { code: 'LIMIT_EXCEEDED', message: "your plan does not include 'audit-log'" }
		});

		const big = await call('GET', '/v1/audit-logs?perPage=51', readKey);
		expect(big.status).toBe(400);
		expect(((await big.json()) as { error: { code: string } }).error.code).toBe('VALIDATION');
	});

	it('describes both endpoints in /openapi.json', async () => {
		const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
			paths: Record<string, { get: { parameters: Array<{ name: string; in: string }> } }>;
		};
		expect(doc.paths['/v1/audit-logs'].get.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
			'query:page',
			'query:perPage',
			'query:entityType',
			'query:entityId'
		]);
		expect(doc.paths['/v1/audit-logs/{auditLogId}'].get.parameters).toEqual([
			expect.objectContaining({ name: 'auditLogId', in: 'path', required: true })
		]);
	});

	it('records dashboard writes as the signed-in user', async () => {
		const user = await createUser(db);
		await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: 'admin' } });
		const session = await upstate.lucia.createSession(user.id, { workspaceId: ws.id });
		const { api: caller } = await callerForSession({ upstate, sessionId: session.id });
		const created = await caller.monitor.create({ ...monitor, type: 'http', periodicity: '1m' });
		const page = await caller.auditLog.list({
			entityType: 'monitor',
			entityId: String(created.id)
		});
		expect(page.data).toEqual([
			expect.objectContaining({
				action: 'monitor.create',
				actor_type: 'user',
				actor_id: `user_${user.id}`,
				actor_user_id: user.id
			})
		]);
	});
});
