import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createPageComponent } from '../src/domain/page-component/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

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
	const limits = { ...TEAM_LIMITS, 'status-subscribers': true };
	const ws = await createWorkspace(db, { limits });
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
	otherKey = await issueKey(db, await createWorkspace(db, { limits }), 'write');
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

describe('REST v1 status page subscribers', () => {
	it('adds a webhook subscriber, lists and removes it; scope and tenancy hold', async () => {
		const path = `/v1/status-pages/${pageId}/subscribers`;
		const added = await call('POST', path, writeKey, {
			url: 'https://hooks.example.com/status',
			componentIds: [componentId]
		});
		expect(added.status).toBe(201);
		expect(added.body).toMatchObject({
			type: 'webhook',
			webhookUrl: 'https://hooks.example.com/status',
			componentIds: [componentId],
			status: 'confirmed'
		});
		expect(String(added.body.signingSecret)).toMatch(/^whsec_/);
		const id = added.body.id as number;

		const list = await call('GET', path, readKey);
		expect(list.status).toBe(200);
		expect(list.body.data).toEqual([expect.objectContaining({ id, type: 'webhook' })]);
		expect(JSON.stringify(list.body)).not.toContain('whsec_');

		expect((await call('POST', path, readKey, { url: 'https://x.example.com' })).status).toBe(403);
		expect((await call('GET', path, otherKey)).status).toBe(404);
		expect((await call('DELETE', `${path}/${id}`, otherKey)).status).toBe(404);
		expect((await call('DELETE', `${path}/${id}`, writeKey)).body).toEqual({ id, deleted: true });
		expect((await call('DELETE', `${path}/${id}`, writeKey)).status).toBe(404);
	});
});
