import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Code, ConnectError } from '@connectrpc/connect';
import { MonitorService } from '@upstate/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { createWorkspace } from './factories.ts';
import { client } from './rpc.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// Rate limits (spec 4.1, 7.2, 8): 10 calls per credential per minute, 3 failed authentications
// per address, so each test spends its own fresh key.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(
		createTestUpstate(db, {
			RATE_LIMIT_REQUESTS: '10',
			RATE_LIMIT_ANONYMOUS_REQUESTS: '3',
			RATE_LIMIT_WINDOW_SECONDS: '60'
		})
	);
	ws = await createWorkspace(db);
});
afterAll(() => api.close());

const rest = (key: string) =>
	fetch(`${api.url}/v1/monitors`, { headers: { 'x-service-key': key } });

const mcp = (key: string | undefined, body: unknown) =>
	fetch(`${api.url}/mcp`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			...(key ? { 'x-service-key': key } : {})
		},
		body: JSON.stringify(body)
	});

const toolCall = (id: number) => ({
	jsonrpc: '2.0',
	id,
	method: 'tools/call',
	params: { name: 'list_monitors', arguments: {} }
});

describe('rate limits', () => {
	it('answers REST over the limit with 429, Retry-After and the envelope', async () => {
		const key = await issueKey(db, ws, 'read');
		const first = await rest(key);
		expect(first.status).toBe(200);
		expect(first.headers.get('ratelimit-policy')).toBe('"credential";q=10;w=60');
		expect(first.headers.get('ratelimit')).toMatch(/^"credential";r=9;t=\d+$/);
		for (let i = 0; i < 9; i++) expect((await rest(key)).status).toBe(200);
		const over = await rest(key);
		expect(over.status).toBe(429);
		expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(over.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
		expect(await over.json()).toEqual({
			error: {
				code: 'LIMIT_EXCEEDED',
				message: expect.stringMatching(/^rate limit exceeded: retry after \d+ s/)
			}
		});
	});

	it('shares one budget between REST and MCP and answers MCP with a plain 429', async () => {
		const key = await issueKey(db, ws, 'read');
		for (let i = 0; i < 5; i++) expect((await rest(key)).status).toBe(200);
		const client = new Client({ name: 'test', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
				requestInit: { headers: { 'x-service-key': key } }
			})
		);
		// The handshake spent some of the five left; tool calls spend the rest, then are refused.
		let served = 0;
		let refused: unknown;
		while (!refused && served < 6) {
			try {
				await client.callTool({ name: 'list_monitors', arguments: {} });
				served++;
			} catch (err) {
				refused = err;
			}
		}
		expect(served).toBeLessThan(5);
		expect(String(refused)).toMatch(/Error POSTing to endpoint/);
		await client.close();
		const over = await mcp(key, toolCall(1));
		expect(over.status).toBe(429);
		expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(await over.text()).toBe('');
		expect((await rest(key)).status).toBe(429);
	});

	it('counts every tool call inside a JSON-RPC batch', async () => {
		const key = await issueKey(db, ws, 'read');
		const batch = await mcp(key, [toolCall(1), toolCall(2), toolCall(3), toolCall(4)]);
		expect(batch.status).toBe(200);
		expect(batch.headers.get('ratelimit')).toMatch(/^"credential";r=6;t=\d+$/);
		const tooBig = await mcp(
			key,
			Array.from({ length: 7 }, (_, i) => toolCall(i + 10))
		);
		expect(tooBig.status).toBe(429);
		expect(await tooBig.text()).toBe('');
	});

	it('counts every message of a batch, not only tool calls', async () => {
		// A batch of 8 tools/list or resources/read is eight requests of work: it must not cost one.
		const key = await issueKey(db, ws, 'read');
		const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
		const batch = await mcp(key, [list(1), list(2), list(3), toolCall(4), list(5), list(6)]);
		expect(batch.status).toBe(200);
		expect(batch.headers.get('ratelimit')).toMatch(/^"credential";r=4;t=\d+$/);
		expect(
			(
				await mcp(
					key,
					Array.from({ length: 5 }, (_, i) => list(i + 10))
				)
			).status
		).toBe(429);
	});

	it('shares the budget with /rpc, which answers RESOURCE_EXHAUSTED (429) over it', async () => {
		const key = await issueKey(db, ws, 'read');
		for (let i = 0; i < 5; i++) expect((await rest(key)).status).toBe(200);
		const monitors = client(MonitorService, api.url, key, 'connect-json');
		for (let i = 0; i < 5; i++) await monitors.listMonitors({});
		const refused = await monitors.listMonitors({}).catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(ConnectError);
		expect(refused).toMatchObject({ code: Code.ResourceExhausted });
		expect((refused as ConnectError).metadata.get('retry-after')).toMatch(/^\d+$/);
		const raw = await fetch(`${api.url}/rpc/upstate.v1.MonitorService/ListMonitors`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-service-key': key },
			body: '{}'
		});
		expect(raw.status).toBe(429);
		expect(raw.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
		const grpc = client(MonitorService, api.url, key, 'grpc');
		expect(await grpc.listMonitors({}).catch((e: unknown) => e)).toMatchObject({
			code: Code.ResourceExhausted
		});
		expect((await rest(key)).status).toBe(429);
	});

	it('keeps separate budgets per credential', async () => {
		const spent = await issueKey(db, ws, 'read');
		const fresh = await issueKey(db, ws, 'read');
		for (let i = 0; i < 10; i++) await rest(spent);
		expect((await rest(spent)).status).toBe(429);
		expect((await rest(fresh)).status).toBe(200);
	});
});

describe('rate limits without credentials', () => {
	it('limits failed authentication per client address on both surfaces', async () => {
		const initialize = {
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-11-25',
				capabilities: {},
				clientInfo: { name: 'x', version: '1' }
			}
		};
		expect((await mcp(undefined, initialize)).status).toBe(401);
		expect((await rest('not-a-key')).status).toBe(401);
		expect((await mcp('not-a-key', initialize)).status).toBe(401);
		const limited = await mcp(undefined, initialize);
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(limited.headers.get('ratelimit-policy')).toBe('"anonymous";q=3;w=60');
		const restLimited = await rest('still-not-a-key');
		expect(restLimited.status).toBe(429);
		expect(((await restLimited.json()) as { error: { code: string } }).error.code).toBe(
			'LIMIT_EXCEEDED'
		);
		// A valid credential is still served from the same address.
		const key = await issueKey(db, ws, 'read');
		expect((await rest(key)).status).toBe(200);
	});
});

// Registration writes a row and authorization may fetch a metadata document, both without a
// credential: a server with an OAuth budget of 3 per address shows each is charged.
describe('rate limits on the OAuth endpoints', () => {
	it('charges registration and authorization to the client address', async () => {
		const own = await startApi(
			createTestUpstate(db, { RATE_LIMIT_OAUTH_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' })
		);
		try {
			const register = () =>
				fetch(`${own.url}/oauth/register`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'] })
				});
			const registered = await register();
			expect(registered.status).toBe(201);
			const { client_id } = (await registered.json()) as { client_id: string };
			const authorize = () =>
				fetch(`${own.url}/oauth/authorize?client_id=${client_id}`, { redirect: 'manual' });
			expect((await authorize()).status).toBe(302);
			expect((await register()).status).toBe(201);
			const clients = await db.oAuthClient.count();
			const refused = await register();
			expect(refused.status).toBe(429);
			expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
			expect(await refused.json()).toEqual({
				error: 'temporarily_unavailable',
				error_description: expect.stringMatching(/^rate limit exceeded: retry after \d+ s/)
			});
			expect(await db.oAuthClient.count()).toBe(clients);
			const tooMany = await authorize();
			expect(tooMany.status).toBe(429);
			expect(tooMany.headers.get('location')).toBeNull();
		} finally {
			await own.close();
		}
	});
});
