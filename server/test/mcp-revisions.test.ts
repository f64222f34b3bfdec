import http from 'node:http';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// Both protocol revisions on one /mcp (2025-11-25 with initialize, 2026-07-28 stateless), the
// HTTP rules around them (Host/Origin, 401 before body errors, 413, -32700, -32602).
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let key: string;
let monitorId: number;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db, { NEXT_PUBLIC_URL: 'https://app.upstate.test' }));
	const ws = await createWorkspace(db);
	key = await issueKey(db, ws, 'write');
	monitorId = (
		await createMonitor({
			ctx: ctxFor(db, ws),
			input: { type: 'http', name: 'API', periodicity: '1m', url: 'https://example.com' }
		})
	).id;
});
afterAll(() => api.close());

const META = {
	'io.modelcontextprotocol/protocolVersion': '2026-07-28',
	'io.modelcontextprotocol/clientCapabilities': {}
};
const MODERN = { 'mcp-protocol-version': '2026-07-28' };

const post = (body: unknown, headers: Record<string, string> = {}) =>
	fetch(`${api.url}/mcp`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			'x-service-key': key,
			...headers
		},
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});

const listMonitors = (id: number, extra: Record<string, unknown> = {}) => ({
	jsonrpc: '2.0',
	id,
	method: 'tools/call',
	params: { name: 'list_monitors', arguments: {}, ...extra }
});

describe('MCP 2026-07-28 (stateless revision)', () => {
	it('serves the v2 SDK client pinned to 2026-07-28', async () => {
		const client = new ModernClient(
			{ name: 'test', version: '1.0.0' },
			{ versionNegotiation: { mode: { pin: '2026-07-28' } } }
		);
		await client.connect(
			new ModernTransport(new URL(`${api.url}/mcp`), {
				requestInit: { headers: { 'x-service-key': key } }
			})
		);
		expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name)).toContain('list_monitors');
		const listed = await client.callTool({ name: 'list_monitors', arguments: {} });
		expect(listed.structuredContent).toMatchObject({ data: [{ id: monitorId }] });
		const missing = await client.callTool({ name: 'get_monitor', arguments: { monitorId: 99999 } });
		expect(missing).toMatchObject({
			isError: true,
			content: [{ type: 'text', text: 'NOT_FOUND: monitor 99999 not found' }]
		});
		const doc = await client.readResource({ uri: `${api.url}/openapi.json` });
		expect(doc.contents[0]).toMatchObject({ mimeType: 'application/json' });
		await client.close();
	});

	it('is chosen by a negotiating v2 client (server/discover first)', async () => {
		const client = new ModernClient(
			{ name: 'test', version: '1.0.0' },
			{ versionNegotiation: { mode: 'auto' } }
		);
		await client.connect(
			new ModernTransport(new URL(`${api.url}/mcp`), {
				requestInit: { headers: { 'x-service-key': key } }
			})
		);
		expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		expect(client.getServerVersion()).toMatchObject({ name: 'upstate' });
		await client.close();
	});

	it('answers server/discover and stamps resultType, with no session id', async () => {
		const res = await post(
			{ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
			{ ...MODERN, 'mcp-method': 'server/discover' }
		);
		expect(res.status).toBe(200);
		expect(res.headers.get('mcp-session-id')).toBeNull();
		expect(await res.json()).toMatchObject({
			id: 1,
			result: {
				supportedVersions: ['2026-07-28'],
				capabilities: { tools: {}, resources: {} },
				resultType: 'complete'
			}
		});
		const call = await post(listMonitors(2, { _meta: META }), {
			...MODERN,
			'mcp-method': 'tools/call',
			'mcp-name': 'list_monitors'
		});
		expect(await call.json()).toMatchObject({ id: 2, result: { resultType: 'complete' } });
	});

	it('refuses Mcp-Method / Mcp-Name headers that disagree with the body with 400', async () => {
		const wrongName = await post(listMonitors(3, { _meta: META }), {
			...MODERN,
			'mcp-method': 'tools/call',
			'mcp-name': 'get_monitor'
		});
		expect(wrongName.status).toBe(400);
		expect(((await wrongName.json()) as { error: { message: string } }).error.message).toMatch(
			/Mcp-Name header names "get_monitor"/
		);
		const wrongMethod = await post(listMonitors(4, { _meta: META }), {
			...MODERN,
			'mcp-method': 'tools/list'
		});
		expect(wrongMethod.status).toBe(400);
		const noMethod = await post(
			{ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: META } },
			MODERN
		);
		expect(noMethod.status).toBe(400);
	});
});

describe('MCP 2025-11-25 (initialize)', () => {
	it('serves the v1 SDK client at 2025-11-25 with no session id', async () => {
		let sessionHeader: string | null = 'unset';
		const client = new Client({ name: 'test', version: '1.0.0' });
		const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
			requestInit: { headers: { 'x-service-key': key } },
			fetch: async (url, init) => {
				const res = await fetch(url, init);
				sessionHeader = res.headers.get('mcp-session-id');
				return res;
			}
		});
		await client.connect(transport);
		expect(transport.protocolVersion).toBe('2025-11-25');
		const listed = await client.callTool({ name: 'list_monitors', arguments: {} });
		expect(listed.structuredContent).toMatchObject({ data: [{ id: monitorId }] });
		expect(sessionHeader).toBeNull();
		await client.close();
	});
});

// A raw request with a chosen Host header (fetch will not send a foreign one).
function rawPost(headers: Record<string, string>): Promise<number> {
	const { port } = new URL(api.url);
	return new Promise((resolve, reject) => {
		const req = http.request(
			{
				host: '127.0.0.1',
				port,
				path: '/mcp',
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					'x-service-key': key,
					...headers
				}
			},
			(res) => {
				res.resume();
				resolve(res.statusCode ?? 0);
			}
		);
		req.on('error', reject);
		req.end(JSON.stringify(listMonitors(1)));
	});
}

describe('MCP over HTTP', () => {
	it('refuses a foreign Host or Origin (DNS rebinding) and accepts the product origins', async () => {
		const { host } = new URL(api.url);
		expect(await rawPost({ host: 'evil.example' })).toBe(403);
		expect(await rawPost({ host, origin: 'https://evil.example' })).toBe(403);
		expect(await rawPost({ host: 'localhost' })).toBe(200);
		expect(await rawPost({ host, origin: 'https://app.upstate.test' })).toBe(200);
		expect(await rawPost({ host })).toBe(200);
	});

	it('checks credentials before the body: 401, then -32700, 413 as JSON-RPC errors', async () => {
		const anonymous = await post('{not json', { 'x-service-key': '' });
		expect(anonymous.status).toBe(401);
		const invalid = await post('{not json');
		expect(invalid.status).toBe(400);
		expect(await invalid.json()).toEqual({
			jsonrpc: '2.0',
			id: null,
			error: { code: -32700, message: 'Parse error: the body is not valid JSON' }
		});
		const huge = await post(listMonitors(1, { arguments: { pad: 'x'.repeat(1_100_000) } }));
		expect(huge.status).toBe(413);
		expect(await huge.json()).toEqual({
			jsonrpc: '2.0',
			id: null,
			error: { code: -32000, message: 'Payload Too Large: the body must not exceed 1048576 bytes' }
		});
	});

	it('answers malformed params with -32602 and a readable message', async () => {
		const cases: Array<[unknown, string]> = [
			[
				{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } },
				'invalid params for tools/call: name: Invalid input: expected string, received number'
			],
			[
				{ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 5 } },
				'invalid params for resources/read: uri: Invalid input: expected string, received number'
			],
			[
				listMonitors(3, { name: 'get_monitor', arguments: { monitorId: 'x' } }),
				'invalid arguments for get_monitor: monitorId: Invalid input: expected number, received string'
			]
		];
		for (const [body, message] of cases) {
			const res = await post(body);
			expect(await res.json()).toMatchObject({ error: { code: -32602, message } });
		}
	});
});
