import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createPageComponent } from '../src/domain/page-component/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let writeKey: string;
let readKey: string;
let otherKey: string;
let pageId: number;
let componentId: number;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	const ws = await createWorkspace(db);
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
	otherKey = await issueKey(db, await createWorkspace(db), 'write');
	const ctx = ctxFor(db, ws);
	pageId = (await createStatusPage({ ctx, input: { title: 'Acme', slug: `acme-${ws.id}` } })).id;
	componentId = (await createPageComponent({ ctx, input: { pageId, type: 'static', name: 'API' } }))
		.id;
});
afterAll(() => api.close());

const call = async (method: string, path: string, key: string, body?: unknown) => {
	const res = await fetch(`${api.url}${path}`, {
		method,
		headers: {
			'x-service-key': key,
			...(body !== undefined ? { 'content-type': 'application/json' } : {})
		},
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('REST v1 status reports and maintenance', () => {
	it('creates, lists, updates, resolves and gets a status report', async () => {
		const created = await call('POST', '/v1/status-reports', writeKey, {
			pageId,
			title: 'API errors',
			status: 'investigating',
			message: 'Looking into it',
			pageComponentIds: [componentId],
			notify: false
		});
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ status: 'investigating', notified: false });
		const id = created.body.id as number;
		const update = await call('POST', `/v1/status-reports/${id}/updates`, writeKey, {
			status: 'monitoring',
			message: 'Fix deployed',
			impacts: [{ componentId, impact: 'degraded_performance' }],
			notify: true
		});
		expect(update.status).toBe(201);
		expect(update.body).toMatchObject({ status: 'monitoring', notified: true });
		const listed = await call('GET', '/v1/status-reports?perPage=10', readKey);
		expect(listed.body).toMatchObject({
			data: [{ id }],
			pagination: { page: 1, perPage: 10, totalSize: 1, totalPages: 1 }
		});
		const patched = await call('PATCH', `/v1/status-reports/${id}`, writeKey, { title: 'API 5xx' });
		expect(patched.body).toMatchObject({ title: 'API 5xx', status: 'monitoring' });
		// Resolving is a public update: the metadata edit refuses it (open statuses may change).
		const sneaky = await call('PATCH', `/v1/status-reports/${id}`, writeKey, {
			status: 'resolved'
		});
		expect(sneaky.status).toBe(400);
		expect(sneaky.body).toMatchObject({
			error: {
				code: 'VALIDATION',
				message: expect.stringMatching(/^status: resolving or reopening posts a public update/)
			}
		});
		expect((await call('GET', `/v1/status-reports/${id}`, readKey)).body).toMatchObject({
			status: 'monitoring',
			resolvedAt: null
		});
		const resolved = await call('POST', `/v1/status-reports/${id}/resolve`, writeKey, {
			message: 'All good',
			notify: false
		});
		expect(resolved.status).toBe(200);
		expect(resolved.body).toMatchObject({ status: 'resolved', notified: false });
		expect((await call('GET', '/v1/status-reports', readKey)).body.data).toEqual([]);
		expect(
			(await call('GET', '/v1/status-reports?filter=all', readKey)).body.data as unknown[]
		).toHaveLength(1);
		const got = await call('GET', `/v1/status-reports/${id}`, readKey);
		expect((got.body.updates as Array<{ status: string }>).map((u) => u.status)).toEqual([
			'resolved',
			'monitoring',
			'investigating'
		]);
		const theirs = await call('GET', `/v1/status-reports/${id}`, otherKey);
		expect(theirs.status).toBe(404);
		expect(theirs.body).toEqual(errorBody.notFound(`status report ${id} not found`));
	});

	it('answers VALIDATION on the notify field when it is missing, and 403 for a read key', async () => {
		const missing = await call('POST', '/v1/status-reports', writeKey, {
			pageId,
			title: 't',
			status: 'investigating',
			message: 'm'
		});
		expect(missing.status).toBe(400);
		expect((missing.body.error as { issues: Array<{ path: string }> }).issues).toEqual([
			expect.objectContaining({ path: 'notify' })
		]);
		const denied = await call('POST', '/v1/maintenances', readKey, {
			pageId,
			title: 't',
			from: '2026-12-01T02:00:00Z',
			to: '2026-12-01T04:00:00Z',
			notify: false
		});
		expect(denied.status).toBe(403);
	});

	it('schedules, edits, lists and deletes a maintenance window', async () => {
		const backwards = await call('POST', '/v1/maintenances', writeKey, {
			pageId,
			title: 'DB upgrade',
			from: '2026-12-01T04:00:00Z',
			to: '2026-12-01T02:00:00Z',
			notify: false
		});
		expect(backwards.status).toBe(400);
		expect(backwards.body).toEqual({
			error: {
				code: 'VALIDATION',
				message: 'to: End date must be after start date.',
				issues: [{ path: 'to', message: 'End date must be after start date.' }]
			}
		});
		const created = await call('POST', '/v1/maintenances', writeKey, {
			pageId,
			title: 'DB upgrade',
			from: '2026-12-01T02:00:00Z',
			to: '2026-12-01T04:00:00Z',
			notify: true
		});
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ notify: true, notified: true });
		const id = created.body.id as number;
		const patched = await call('PATCH', `/v1/maintenances/${id}`, writeKey, {
			message: 'Read-only for 10 minutes'
		});
		expect(patched.body).toMatchObject({ message: 'Read-only for 10 minutes' });
		expect((await call('GET', '/v1/maintenances', readKey)).body).toMatchObject({
			data: [{ id }],
			pagination: { page: 1, perPage: 50, totalSize: 1, totalPages: 1 }
		});
		expect((await call('DELETE', `/v1/maintenances/${id}`, writeKey)).body).toEqual({
			id,
			deleted: true
		});
		expect((await call('GET', `/v1/maintenances/${id}`, readKey)).status).toBe(404);
	});

	it('documents every route in the OpenAPI document', async () => {
		const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
			paths: Record<string, Record<string, unknown>>;
		};
		const methods = (p: string) => Object.keys(doc.paths[p] ?? {}).sort();
		expect(methods('/v1/status-reports')).toEqual(['get', 'post']);
		expect(methods('/v1/status-reports/{reportId}')).toEqual(['get', 'patch']);
		expect(methods('/v1/status-reports/{reportId}/updates')).toEqual(['post']);
		expect(methods('/v1/status-reports/{reportId}/resolve')).toEqual(['post']);
		expect(methods('/v1/maintenances')).toEqual(['get', 'post']);
		expect(methods('/v1/maintenances/{maintenanceId}')).toEqual(['delete', 'get', 'patch']);
	});
});
