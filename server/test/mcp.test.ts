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
			input: { type: 'http', name: 'API', periodicity: '1m', url: 'https://example.com' }
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
		expect(got.structuredContent).toMatchObject({ id: monitorId, url: 'https://example.com' });
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

	it('serves the OpenAPI document as a public resource', async () => {
		const client = await connect(readKey);
		const { resources } = await client.listResources();
		expect(resources.map((r) => r.name)).toEqual([
			'openapi-specification',
			'mcp-server-reference',
			'site-index'
		]);
		const doc = await client.readResource({ uri: `${api.url}/openapi.json` });
		const [content] = doc.contents;
		expect('text' in content && JSON.parse(content.text).openapi).toBe('3.1.0');
		await client.close();
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
