import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let writeKey: string;
let readKey: string;
let monitorId: number;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	const ws = await createWorkspace(db);
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
	monitorId = (
		await createMonitor({
			ctx: ctxFor(db, ws),
			input: {
				type: 'http',
				name: 'API',
				periodicity: '1m',
				url: 'https://example.com',
				tags: ['prod', 'api']
			}
		})
	).id;
	await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Acme', slug: `acme-${ws.id}` } });
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

describe('MCP server', () => {
	it('lists tools with annotations derived from scope, and calls them', async () => {
		const client = await connect(writeKey);
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
		expect(Object.keys(byName)).toEqual(
			expect.arrayContaining([
				'list_monitors',
				'get_monitor',
				'list_status_pages',
				'list_page_components'
			])
		);
		expect(byName.get_monitor.annotations).toEqual({
			readOnlyHint: true,
			destructiveHint: false,
			idempotentHint: true
		});
		expect(byName.get_monitor.inputSchema.required).toEqual(['monitorId']);
		const listed = await client.callTool({ name: 'list_monitors', arguments: { perPage: 5 } });
		expect(
			(listed.structuredContent as { data: Array<{ id: number; activeIncidentCount: number }> })
				.data
		).toEqual([expect.objectContaining({ id: monitorId, activeIncidentCount: 0 })]);
		const got = await client.callTool({ name: 'get_monitor', arguments: { monitorId } });
		// Spec 4.1: get_monitor shows the tags and no status.
		expect(got.structuredContent).toMatchObject({
			id: monitorId,
			url: 'https://example.com',
			tags: ['prod', 'api']
		});
		expect(got.structuredContent).not.toHaveProperty('status');
		const health = await client.callTool({ name: 'get_monitor_status', arguments: { monitorId } });
		expect(health.structuredContent).toEqual({ monitorId, regions: [], pending: [] });
		const pages = await client.callTool({ name: 'list_status_pages', arguments: {} });
		expect(
			(pages.structuredContent as { data: Array<{ title: string }> }).data.map((p) => p.title)
		).toEqual(['Acme']);
		await client.close();
	});

	it('shows a read-only key only list_ and get_ tools', async () => {
		const client = await connect(readKey);
		const { tools } = await client.listTools();
		expect(tools.length).toBeGreaterThan(0);
		expect(tools.every((t) => /^(list|get)_/.test(t.name))).toBe(true);
		await client.close();
	});

	it('returns NOT_FOUND as a tool result and malformed input as a JSON-RPC error', async () => {
		const client = await connect(writeKey);
		const missing = await client.callTool({
			name: 'get_monitor',
			arguments: { monitorId: 999999 }
		});
		expect(missing.isError).toBe(true);
		expect(missing.content).toEqual([
			{ type: 'text', text: 'NOT_FOUND: monitor 999999 not found' }
		]);
		await expect(
			client.callTool({ name: 'get_monitor', arguments: { monitorId: 'x' } })
		).rejects.toThrow(/invalid arguments for get_monitor/);
		await client.close();
	});

	it('serves the public resources from the product itself', async () => {
		const client = await connect(readKey);
		const { resources } = await client.listResources();
		expect(resources.map((r) => [r.name, r.uri])).toEqual([
			['openapi-specification', `${api.url}/openapi.json`],
			['mcp-server-reference', `${api.url}/docs/reference/mcp-server`],
			['site-index', `${api.url}/llms.txt`]
		]);
		const text = async (uri: string) => {
			const [content] = (await client.readResource({ uri })).contents;
			return 'text' in content ? content.text : '';
		};
		expect(JSON.parse(await text(`${api.url}/openapi.json`)).openapi).toBe('3.1.0');
		const reference = await text(`${api.url}/docs/reference/mcp-server`);
		expect(reference).toContain('### `get_monitor`');
		expect(reference).toContain('readOnlyHint `true`');
		expect(reference).toContain('"monitorId"');
		expect(reference).toContain('JSON-RPC error -32602');
		// The same documents over plain HTTP, where the URIs point.
		const served = await fetch(`${api.url}/docs/reference/mcp-server`);
		expect(served.headers.get('content-type')).toMatch(/^text\/markdown/);
		expect(await served.text()).toBe(reference);
		const llms = await fetch(`${api.url}/llms.txt`);
		expect(await llms.text()).toBe(await text(`${api.url}/llms.txt`));
		expect(await text(`${api.url}/llms.txt`)).toMatch(/^# Upstate\n/);
		await client.close();
	});

	it('points the documents at SERVICE_WEB_BASE_URL when it is set', async () => {
		const docs = http.createServer((req, res) => {
			res.setHeader('content-type', 'text/plain');
			res.end(`mirror of ${req.url}`);
		});
		await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
		const base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
		const mirrored = await startApi(createTestUpstate(db, { SERVICE_WEB_BASE_URL: base }));
		const client = new Client({ name: 'test', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${mirrored.url}/mcp`), {
				requestInit: { headers: { 'x-service-key': readKey } }
			})
		);
		const { resources } = await client.listResources();
		expect(resources.map((r) => r.uri)).toEqual([
			`${mirrored.url}/openapi.json`,
			`${base}/docs/reference/mcp-server`,
			`${base}/llms.txt`
		]);
		const [content] = (await client.readResource({ uri: `${base}/llms.txt` })).contents;
		expect(content).toMatchObject({ text: 'mirror of /llms.txt' });
		await client.close();
		await mirrored.close();
		docs.close();
	});

	it('is stateless over HTTP: no session id, 401 without a key, 406 on GET without SSE', async () => {
		const init = {
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 'raw', version: '1' }
			}
		};
		const headers = {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream'
		};
		const ok = await fetch(`${api.url}/mcp`, {
			method: 'POST',
			headers: { ...headers, 'x-service-key': readKey },
			body: JSON.stringify(init)
		});
		expect(ok.status).toBe(200);
		expect(ok.headers.get('mcp-session-id')).toBeNull();
		const anon = await fetch(`${api.url}/mcp`, {
			method: 'POST',
			headers,
			body: JSON.stringify(init)
		});
		expect(anon.status).toBe(401);
		expect(anon.headers.get('www-authenticate')).toBe(
			`Bearer resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read write"`
		);
		const get = await fetch(`${api.url}/mcp`, {
			headers: { 'x-service-key': readKey, accept: 'application/json' }
		});
		expect(get.status).toBe(406);
	});
});
