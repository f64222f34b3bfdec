import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { verifyWebhookSignature } from '../src/notify/index.ts';
import { createTestDb } from './db.ts';
import { startFakeVendor } from './fake-vendor.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from './factories.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

// Notification channels over the real surfaces: REST v1 with an API key, and the MCP
// list_notifications tool through the official SDK client.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let vendor: Awaited<ReturnType<typeof startFakeVendor>>;
let writeKey: string;
let readKey: string;
let otherKey: string;
let monitorId: number;

const PD_KEY = 'pd-routing-key-SECRET-9f3a';
const SLACK_URL_PATH = '/services/T0/B0/slack-SECRET-77aa';

beforeAll(async () => {
	({ db } = await createTestDb());
	vendor = await startFakeVendor((req) =>
		req.path === '/v2/enqueue' ? { status: 202, body: { status: 'success' } } : { status: 200 }
	);
	api = await startApi(
		createTestUpstate(db, {
			NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
			NOTIFY_BASE_URLS: JSON.stringify({ pagerduty: vendor.url })
		})
	);
	const limits = { ...TEAM_LIMITS, 'notification-channels': 10, pagerduty: true };
	const ws = await createWorkspace(db, { limits });
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
	otherKey = await issueKey(db, await createWorkspace(db, { limits }), 'write');
	monitorId = (
		await createMonitor({
			ctx: ctxFor(db, ws),
			input: { type: 'http', name: 'API', periodicity: '1m', url: 'https://example.com' }
		})
	).id;
});
afterAll(async () => {
	await api.close();
	await vendor.close();
});

const call = (method: string, path: string, key: string, body?: unknown) =>
	fetch(`${api.url}${path}`, {
		method,
		headers: { 'x-service-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined
	});

describe('notification channels over REST v1 and MCP', () => {
	it('creates, reads, updates, tests and deletes a channel; secrets never come back', async () => {
		const created = await call('POST', '/v1/notifications', writeKey, {
			name: 'On-call',
			provider_type: 'pagerduty',
			monitor_ids: [monitorId],
			pagerduty: { integration_key: PD_KEY }
		});
		expect(created.status).toBe(201);
		const channel = (await created.json()) as { id: number };
		expect(channel).toMatchObject({
			name: 'On-call',
			provider_type: 'pagerduty',
			monitor_ids: [monitorId],
			pagerduty: {},
			secret_hints: { integration_key: '…9f3a' }
		});
		const got = await call('GET', `/v1/notifications/${channel.id}`, readKey);
		const list = await call('GET', '/v1/notifications?perPage=200', readKey);
		const bodies = JSON.stringify([await got.json(), await list.json()]);
		expect(bodies).toContain('On-call');
		expect(bodies).not.toContain('SECRET');

		const patched = await call('PATCH', `/v1/notifications/${channel.id}`, writeKey, {
			name: 'Pager'
		});
		expect(await patched.json()).toMatchObject({
			name: 'Pager',
			secret_hints: { integration_key: '…9f3a' }
		});

		vendor.requests.length = 0;
		const tested = await call('POST', `/v1/notifications/${channel.id}/test`, writeKey);
		expect(tested.status).toBe(200);
		expect(await tested.json()).toEqual({ ok: true, status: 202 });
		// The key kept through the edit is the one PagerDuty receives.
		expect(vendor.requests.map((r) => [r.method, r.path, JSON.parse(r.body).routing_key])).toEqual([
			['POST', '/v2/enqueue', PD_KEY],
			['POST', '/v2/enqueue', PD_KEY]
		]);
		expect(JSON.parse(vendor.requests[0].body).payload.component).toBe('API');

		expect((await call('DELETE', `/v1/notifications/${channel.id}`, writeKey)).status).toBe(200);
		const gone = await call('GET', `/v1/notifications/${channel.id}`, readKey);
		expect(gone.status).toBe(404);
		expect(await gone.json()).toEqual(
			errorBody.notFound(`notification channel ${channel.id} not found`)
		);
		const audit = await db.auditLog.findMany({ where: { entityType: 'notification_channel' } });
		expect(audit.map((a) => a.action)).toEqual([
			'notification_channel.create',
			'notification_channel.update',
			'notification_channel.test',
			'notification_channel.delete'
		]);
		expect(JSON.stringify(audit)).not.toContain('SECRET');
	});

	it('answers VALIDATION naming the field, 403 for a read key, 404 across workspaces', async () => {
		const invalid = await call('POST', '/v1/notifications', writeKey, {
			provider_type: 'opsgenie',
			opsgenie: { api_key: 'k', region: 'ap' }
		});
		expect(invalid.status).toBe(400);
		const body = (await invalid.json()) as {
			error: { code: string; issues: Array<{ path: string }> };
		};
		expect(body.error.code).toBe('VALIDATION');
		expect(body.error.issues.map((i) => i.path)).toEqual(['opsgenie.region']);
		const denied = await call('POST', '/v1/notifications', readKey, {
			provider_type: 'email',
			email: { email: 'a@example.com' }
		});
		expect(denied.status).toBe(403);
		const mine = (await (
			await call('POST', '/v1/notifications', writeKey, {
				provider_type: 'email',
				email: { email: 'a@example.com' }
			})
		).json()) as { id: number };
		const theirs = await call('POST', `/v1/notifications/${mine.id}/test`, otherKey);
		expect(theirs.status).toBe(404);
		expect(await theirs.json()).toEqual(
			errorBody.notFound(`notification channel ${mine.id} not found`)
		);
	});

	it('delivers a signed webhook test that the receiver can verify', async () => {
		const created = (await (
			await call('POST', '/v1/notifications', writeKey, {
				provider_type: 'webhook',
				webhook: { endpoint: `${vendor.url}/receiver` }
			})
		).json()) as { id: number; signing_secret: string };
		vendor.requests.length = 0;
		const tested = await call('POST', `/v1/notifications/${created.id}/test`, writeKey);
		expect(await tested.json()).toEqual({ ok: true, status: 200 });
		const [req] = vendor.requests;
		expect(JSON.parse(req.body)).toMatchObject({ version: '1', event: 'test' });
		expect(
			verifyWebhookSignature({
				secret: created.signing_secret,
				header: String(req.headers['x-upstate-signature']),
				body: req.body
			})
		).toBe(true);
	});

	it('MCP list_notifications: channels and wired monitors, no credentials, perPage max 200', async () => {
		await call('POST', '/v1/notifications', writeKey, {
			name: 'Chat',
			provider_type: 'slack',
			monitor_ids: [monitorId],
			slack: { webhook_url: `${vendor.url}${SLACK_URL_PATH}` }
		});
		const client = new Client({ name: 'test', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
				requestInit: { headers: { 'x-service-key': readKey } }
			})
		);
		const { tools } = await client.listTools();
		const tool = tools.find((t) => t.name === 'list_notifications');
		expect(tool?.annotations).toEqual({
			readOnlyHint: true,
			destructiveHint: false,
			idempotentHint: true
		});
		expect(tool?.inputSchema.properties).toHaveProperty('perPage');
		const result = await client.callTool({
			name: 'list_notifications',
			arguments: { perPage: 200 }
		});
		const data = (result.structuredContent as { data: Array<Record<string, unknown>> }).data;
		expect(data.find((c) => c.name === 'Chat')).toMatchObject({
			provider_type: 'slack',
			monitor_ids: [monitorId],
			monitors: [{ id: monitorId, name: 'API' }],
			secret_hints: { webhook_url: '…77aa' }
		});
		expect(JSON.stringify(result)).not.toContain('SECRET');
		await expect(
			client.callTool({ name: 'list_notifications', arguments: { perPage: 201 } })
		).rejects.toThrow(/invalid arguments for list_notifications/);
		await client.close();
	});
});
