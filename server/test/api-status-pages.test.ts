import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from './factories.ts';
import { twoPages } from './pages.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

// Status page surfaces (REST and MCP) as a careless or hostile API client meets them.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let writeKey: string;
let pageId: number;
let componentId: number;
let otherPageComponentId: number;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'custom-domain': true } });
	writeKey = await issueKey(db, ws, 'write');
	const ctx = ctxFor(db, ws);
	({ pageId, componentId, otherPageComponentId } = await twoPages(ctx));
});
afterAll(() => api.close());

async function call(base: string, method: string, path: string, key: string, body?: unknown) {
	const res = await fetch(`${base}${path}`, {
		method,
		headers: { 'x-service-key': key, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const rest = (method: string, path: string, body?: unknown) =>
	call(api.url, method, path, writeKey, body);

async function withClient<T>(fn: (c: Client) => Promise<T>): Promise<T> {
	const client = new Client({ name: 'test', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
			requestInit: { headers: { 'x-service-key': writeKey } }
		})
	);
	try {
		return await fn(client);
	} finally {
		await client.close();
	}
}

const unrecognized = (key: string) => errorBody.validation('', `Unrecognized key: "${key}"`);

describe('status page API for careless clients', () => {
	it('refuses a misspelt field on create instead of dropping it, and creates nothing', async () => {
		const slug = `camel-${ws.id}`;
		const page = await rest('POST', '/v1/status-pages', {
			title: 'A',
			slug,
			customDomain: 'status.example.com'
		});
		expect(page).toEqual({ status: 400, body: unrecognized('customDomain') });
		expect(await db.statusPage.count({ where: { slug } })).toBe(0);
		// A static component has no monitor: a monitor_id is a mistake, not something to ignore.
		const component = await rest('POST', `/v1/status-pages/${pageId}/components`, {
			type: 'static',
			name: 'Web',
			monitor_id: 1
		});
		expect(component).toEqual({ status: 400, body: unrecognized('monitor_id') });
		const group = await rest('POST', `/v1/status-pages/${pageId}/component-groups`, {
			name: 'Core',
			components: [componentId]
		});
		expect(group).toEqual({ status: 400, body: unrecognized('components') });
		expect(await db.pageComponent.count({ where: { pageId } })).toBe(1);
		expect(await db.componentGroup.count({ where: { pageId } })).toBe(0);
	});

	it('refuses a publishing call with a misspelt componentIds rather than publishing without components', async () => {
		await withClient(async (c) => {
			const tools = Object.fromEntries((await c.listTools()).tools.map((t) => [t.name, t]));
			for (const name of ['create_status_report', 'add_status_report_update', 'create_maintenance'])
				expect(tools[name].inputSchema).toMatchObject({ additionalProperties: false });
			await expect(
				c.callTool({
					name: 'create_status_report',
					arguments: {
						pageId,
						title: 'API errors',
						status: 'investigating',
						message: 'Looking into it',
						componentIds: [componentId],
						notify: false
					}
				})
			).rejects.toThrow(
				/invalid arguments for create_status_report: Unrecognized key: "componentIds"/
			);
			await expect(
				c.callTool({
					name: 'create_maintenance',
					arguments: {
						pageId,
						title: 'DB upgrade',
						from: '2030-01-01T02:00:00Z',
						to: '2030-01-01T04:00:00Z',
						components: [componentId],
						notify: false
					}
				})
			).rejects.toThrow(/invalid arguments for create_maintenance: Unrecognized key: "components"/);
		});
		expect(await db.statusReport.count({ where: { pageId } })).toBe(0);
		expect(await db.maintenance.count({ where: { pageId } })).toBe(0);
	});

	it('leaves nothing behind when one component of a report or maintenance is on another page', async () => {
		const report = await rest('POST', '/v1/status-reports', {
			pageId,
			title: 't',
			status: 'investigating',
			message: 'm',
			pageComponentIds: [componentId],
			impacts: [{ componentId: otherPageComponentId, impact: 'major_outage' }],
			notify: false
		});
		expect(report).toEqual({
			status: 404,
			body: errorBody.notFound(`page component ${otherPageComponentId} not found`)
		});
		const maintenance = await rest('POST', '/v1/maintenances', {
			pageId,
			title: 'mt',
			from: '2030-01-01T02:00:00Z',
			to: '2030-01-01T04:00:00Z',
			pageComponentIds: [componentId, otherPageComponentId],
			notify: false
		});
		expect(maintenance.status).toBe(404);
		expect(await db.statusReport.count({ where: { pageId } })).toBe(0);
		expect(await db.maintenance.count({ where: { pageId } })).toBe(0);
	});

	it('says a maintenance time needs a time zone', async () => {
		const message = 'must be an ISO 8601 date-time with a time zone, such as 2030-01-01T02:00:00Z';
		const res = await rest('POST', '/v1/maintenances', {
			pageId,
			title: 'mt',
			from: '2030-01-01T02:00:00',
			to: '2030-01-01T04:00:00Z',
			notify: false
		});
		expect(res).toEqual({ status: 400, body: errorBody.validation('from', message) });
		await withClient(async (c) => {
			const tool = (await c.listTools()).tools.find((t) => t.name === 'create_maintenance');
			expect(tool?.description).toContain('with a time zone, such as 2030-01-01T02:00:00Z');
		});
	});

	it('refuses a custom domain that is not a DNS host name', async () => {
		const message = 'must be a host name such as status.example.com';
		for (const custom_domain of [
			'-status.example.com',
			'status-.example.com',
			`${'a'.repeat(64)}.example.com`
		]) {
			const res = await rest('PATCH', `/v1/status-pages/${pageId}`, { custom_domain });
			expect(res).toEqual({ status: 400, body: errorBody.validation('custom_domain', message) });
		}
		const ok = await rest('PATCH', `/v1/status-pages/${pageId}`, {
			custom_domain: 'Status-1.Example.com'
		});
		expect(ok.body).toMatchObject({ custom_domain: 'status-1.example.com' });
	});

	it('documents the page rules in the OpenAPI document and the tool descriptions', async () => {
		const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
			paths: Record<
				string,
				Record<
					string,
					{
						requestBody: {
							content: Record<string, { schema: { properties: Record<string, unknown> } }>;
						};
					}
				>
			>;
		};
		const props =
			doc.paths['/v1/status-pages'].post.requestBody.content['application/json'].schema.properties;
		expect(JSON.stringify(props.theme)).toContain('One of default, ocean, mono');
		expect(JSON.stringify(props.contact_url)).toContain('must be an http, https or mailto URL');
		expect(JSON.stringify(props.custom_domain)).toContain('DNS must point at the status site');
		await withClient(async (c) => {
			const tools = Object.fromEntries((await c.listTools()).tools.map((t) => [t.name, t]));
			expect(tools.add_status_report_update.description).toContain('reopens it');
			expect(tools.list_status_reports.description).toContain('one pageId');
		});
	});
});

describe('custom domain on a plan without it', () => {
	it('answers LIMIT_EXCEEDED before any DNS lookup', async () => {
		// DNS checks apply (the status site has a domain name) but no resolver answers.
		const upstate = createTestUpstate(db, {
			STATUS_PAGE_URL: 'https://status.test',
			CUSTOM_DOMAIN_DNS_SERVERS: '127.0.0.1:9'
		});
		const dnsApi = await startApi(upstate);
		try {
			const free = await createWorkspace(db, { limits: {} });
			const key = await issueKey(db, free, 'write');
			const page = (
				await call(dnsApi.url, 'POST', '/v1/status-pages', key, {
					title: 'F',
					slug: `free-${free.id}`
				})
			).body as { id: number };
			const res = await call(dnsApi.url, 'PATCH', `/v1/status-pages/${page.id}`, key, {
				custom_domain: 'status.acme.test'
			});
			expect(res).toEqual({
				status: 403,
				body: errorBody.limitExceeded("your plan does not include 'custom-domain'")
			});
		} finally {
			await dnsApi.close();
		}
	}, 20000);
});
