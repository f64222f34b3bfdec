import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { createWorkspace } from './factories.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let writeKey: string;
let readKey: string;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	ws = await createWorkspace(db);
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
});
afterAll(() => api.close());

const call = (method: string, path: string, key?: string, body?: unknown) =>
	fetch(`${api.url}${path}`, {
		method,
		headers: {
			...(key ? { 'x-service-key': key } : {}),
			...(body !== undefined ? { 'content-type': 'application/json' } : {})
		},
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
	});

const monitor = { type: 'http', name: 'API', periodicity: '1m', url: 'https://example.com/health' };

describe('REST v1', () => {
	it('sets, replaces and validates monitor tags', async () => {
		const created = await call('POST', '/v1/monitors', writeKey, { ...monitor, tags: ['prod'] });
		const { id, tags } = (await created.json()) as { id: number; tags: string[] };
		expect(tags).toEqual(['prod']);
		const patched = await call('PATCH', `/v1/monitors/${id}`, writeKey, { tags: ['api', 'eu'] });
		expect(((await patched.json()) as { tags: string[] }).tags).toEqual(['api', 'eu']);
		const repeated = await call('PATCH', `/v1/monitors/${id}`, writeKey, { tags: ['a', 'a'] });
		expect(repeated.status).toBe(400);
		expect(((await repeated.json()) as { error: { message: string } }).error.message).toBe(
			'tags: tags must not repeat'
		);
		const got = (await (await call('GET', `/v1/monitors/${id}`, readKey)).json()) as {
			tags: string[];
		};
		expect(got.tags).toEqual(['api', 'eu']);
	});

	it('creates, reads, lists, updates and deletes a monitor with a write key', async () => {
		const created = await call('POST', '/v1/monitors', writeKey, monitor);
		expect(created.status).toBe(201);
		const { id } = (await created.json()) as { id: number };
		const got = await call('GET', `/v1/monitors/${id}`, readKey);
		expect(got.status).toBe(200);
		expect(await got.json()).toMatchObject({ id, name: 'API', url: monitor.url, timeout: 45000 });
		const list = (await (await call('GET', '/v1/monitors?perPage=10', readKey)).json()) as {
			data: Array<{ id: number }>;
			pagination: { perPage: number };
		};
		expect(list.data.map((m) => m.id)).toContain(id);
		expect(list.pagination.perPage).toBe(10);
		const patched = await call('PATCH', `/v1/monitors/${id}`, writeKey, { name: 'API v2' });
		expect(((await patched.json()) as { name: string }).name).toBe('API v2');
		expect((await call('DELETE', `/v1/monitors/${id}`, writeKey)).status).toBe(200);
		const gone = await call('GET', `/v1/monitors/${id}`, readKey);
		expect(gone.status).toBe(404);
		expect(await gone.json()).toEqual(errorBody.notFound(`monitor ${id} not found`));
	});

	it('audits REST writes with the key as actor', async () => {
		const { id } = (await (await call('POST', '/v1/monitors', writeKey, monitor)).json()) as {
			id: number;
		};
		const entry = await db.auditLog.findFirstOrThrow({
			where: { workspaceId: ws.id, entityType: 'monitor', entityId: String(id) }
		});
		expect(entry).toMatchObject({ actorType: 'apiKey', action: 'monitor.create' });
		expect(entry.actorId).toMatch(/^key_\d+$/);
	});

	it('refuses writes with a read key and requests without a valid key', async () => {
		const denied = await call('POST', '/v1/monitors', readKey, monitor);
		expect(denied.status).toBe(403);
		expect(await denied.json()).toEqual(
			errorBody.forbidden('this credential is read-only: a write-scoped key is required')
		);
		const none = await call('GET', '/v1/monitors');
		expect(none.status).toBe(401);
		expect(await none.json()).toEqual(errorBody.unauthorized('missing x-service-key header'));
		expect((await call('GET', '/v1/monitors', 'us_not-a-real-key')).status).toBe(401);
	});

	it("returns NOT_FOUND for another workspace's monitor", async () => {
		const other = await createWorkspace(db);
		const otherKey = await issueKey(db, other, 'write');
		const { id } = (await (await call('POST', '/v1/monitors', otherKey, monitor)).json()) as {
			id: number;
		};
		const res = await call('GET', `/v1/monitors/${id}`, readKey);
		expect(res.status).toBe(404);
		expect(await res.json()).toEqual(errorBody.notFound(`monitor ${id} not found`));
		expect((await call('DELETE', `/v1/monitors/${id}`, writeKey)).status).toBe(404);
	});

	it('answers VALIDATION naming the field, and for malformed JSON', async () => {
		const res = await call('POST', '/v1/monitors', writeKey, { ...monitor, retry: 11 });
		expect(res.status).toBe(400);
		const body = (await res.json()) as {
			error: { code: string; message: string; issues: Array<{ path: string }> };
		};
		expect(body.error.code).toBe('VALIDATION');
		expect(body.error.issues.map((i) => i.path)).toContain('retry');
		const bad = await call('POST', '/v1/monitors', writeKey, '{"name":');
		expect(bad.status).toBe(400);
		expect(await bad.json()).toEqual({
			error: { code: 'VALIDATION', message: 'request body is not valid JSON' }
		});
	});

	it('serves status pages and their components', async () => {
		const page = (await (
			await call('POST', '/v1/status-pages', writeKey, { title: 'Acme', slug: `acme-${ws.id}` })
		).json()) as { id: number };
		const comp = await call('POST', `/v1/status-pages/${page.id}/components`, writeKey, {
			type: 'static',
			name: 'Website'
		});
		expect(comp.status).toBe(201);
		const list = (await (
			await call('GET', `/v1/status-pages/${page.id}/components`, readKey)
		).json()) as { data: Array<{ name: string }> };
		expect(list.data.map((c) => c.name)).toEqual(['Website']);
	});

	it('refuses a duplicate component group name on a page with 409 CONFLICT', async () => {
		const page = (await (
			await call('POST', '/v1/status-pages', writeKey, { title: 'G', slug: `groups-${ws.id}` })
		).json()) as { id: number };
		const path = `/v1/status-pages/${page.id}/component-groups`;
		expect((await call('POST', path, writeKey, { name: 'Core' })).status).toBe(201);
		const again = await call('POST', path, writeKey, { name: 'Core' });
		expect(again.status).toBe(409);
		expect(await again.json()).toEqual(
			errorBody.conflict("a group named 'Core' already exists on this page")
		);
	});

	it('publishes an OpenAPI document generated from the same procedures', async () => {
		const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
			openapi: string;
			paths: Record<
				string,
				Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>
			>;
			components: { securitySchemes: Record<string, { name: string }> };
		};
		expect(doc.openapi).toBe('3.1.0');
		expect(Object.keys(doc.paths)).toEqual(
			expect.arrayContaining([
				'/v1/monitors',
				'/v1/monitors/{monitorId}',
				'/v1/status-pages',
				'/v1/status-pages/{pageId}'
			])
		);
		expect(Object.keys(doc.paths['/v1/monitors/{monitorId}']).sort()).toEqual([
			'delete',
			'get',
			'patch'
		]);
		expect(doc.paths['/v1/monitors/{monitorId}'].get.parameters).toEqual([
			expect.objectContaining({ name: 'monitorId', in: 'path' })
		]);
		expect(doc.paths['/v1/monitors'].post.requestBody).toBeTruthy();
		expect(doc.components.securitySchemes.serviceKey.name).toBe('x-service-key');
		expect(JSON.stringify(doc)).not.toContain('getPublic');
	});
});
