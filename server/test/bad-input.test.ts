import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// Input found by fuzzing REST and MCP: lone surrogates, oversized bodies, cross-field rules.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let key: string;
let pageId: number;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	ws = await createWorkspace(db);
	key = await issueKey(db, ws, 'write');
	pageId = (
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Acme', slug: `bad-${ws.id}` } })
	).id;
});
afterAll(() => api.close());

const LONE = 'API \uD800 down';
const surrogateMessage = (path: string) =>
	`${path}: contains a lone UTF-16 surrogate: send well-formed Unicode text`;

const rest = (method: string, path: string, body: string) =>
	fetch(`${api.url}${path}`, {
		method,
		headers: { 'x-service-key': key, 'content-type': 'application/json' },
		body
	});

async function mcp(): Promise<Client> {
	const client = new Client({ name: 'test', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
			requestInit: { headers: { 'x-service-key': key } }
		})
	);
	return client;
}

describe('bad input on REST', () => {
	it('refuses a lone surrogate in any string as VALIDATION and writes nothing', async () => {
		const before = await db.monitor.count({ where: { workspaceId: ws.id } });
		// JSON.stringify escapes it as \ud800, which JSON.parse turns back into a lone surrogate.
		const res = await rest(
			'POST',
			'/v1/monitors',
			JSON.stringify({ type: 'http', name: LONE, periodicity: '1m', url: 'https://example.com' })
		);
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({
			error: {
				code: 'VALIDATION',
				message: surrogateMessage('name'),
				issues: [
					{
						path: 'name',
						message: 'contains a lone UTF-16 surrogate: send well-formed Unicode text'
					}
				]
			}
		});
		const nested = await rest(
			'POST',
			'/v1/monitors',
			JSON.stringify({
				type: 'http',
				name: 'ok',
				periodicity: '1m',
				url: 'https://example.com',
				headers: [{ key: 'x', value: '\uDC00' }]
			})
		);
		expect(((await nested.json()) as { error: { message: string } }).error.message).toBe(
			surrogateMessage('headers.0.value')
		);
		expect(await db.monitor.count({ where: { workspaceId: ws.id } })).toBe(before);
	});

	it('answers a body over the size limit with 413 and the envelope', async () => {
		const res = await rest('POST', '/v1/monitors', JSON.stringify({ name: 'x'.repeat(1_100_000) }));
		expect(res.status).toBe(413);
		expect(await res.json()).toEqual({
			error: { code: 'VALIDATION', message: 'request body too large: the limit is 1 MB' }
		});
	});
});

describe('bad input on MCP', () => {
	it('refuses a lone surrogate as a VALIDATION tool result and writes nothing', async () => {
		const client = await mcp();
		const result = await client.callTool({
			name: 'create_status_report',
			arguments: { pageId, title: LONE, status: 'investigating', message: 'm', notify: false }
		});
		expect(result).toMatchObject({
			isError: true,
			content: [{ type: 'text', text: `VALIDATION: ${surrogateMessage('title')}` }]
		});
		expect(await db.statusReport.count({ where: { workspaceId: ws.id } })).toBe(0);
		await client.close();
	});

	it('returns cross-field rules (to before from) as a VALIDATION tool result', async () => {
		const client = await mcp();
		const result = await client.callTool({
			name: 'create_maintenance',
			arguments: {
				pageId,
				from: '2030-01-02T00:00:00Z',
				to: '2030-01-01T00:00:00Z',
				notify: false
			}
		});
		expect(result).toMatchObject({
			isError: true,
			content: [{ type: 'text', text: 'VALIDATION: to: End date must be after start date.' }]
		});
		await client.close();
	});

	it('creates a maintenance from the spec inputs alone (title defaults)', async () => {
		const client = await mcp();
		const result = await client.callTool({
			name: 'create_maintenance',
			arguments: { pageId, from: '2030-01-01T00:00:00Z', to: '2030-01-01T02:00:00Z', notify: false }
		});
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toMatchObject({ title: 'Scheduled maintenance' });
		await client.close();
	});
});

// A body the server cannot read (a Content-Encoding it does not inflate, gzip that is not gzip)
// is the client's mistake: 415 / 400 in each surface's own error shape, never a 500.
describe('unreadable bodies', () => {
	const send = (path: string, encoding: string, type = 'application/json') =>
		fetch(`${api.url}${path}`, {
			method: 'POST',
			headers: {
				'x-service-key': key,
				'content-type': type,
				accept: 'application/json, text/event-stream',
				'content-encoding': encoding
			},
			body: '{}'
		});
	const unsupported =
		'unsupported Content-Encoding: send the body uncompressed, or as gzip, deflate or br';
	const unreadable =
		'the request body could not be read: check its Content-Encoding and Content-Length';

	it('answers REST with the envelope', async () => {
		for (const [encoding, status, message] of [
			['br2', 415, unsupported],
			['gzip', 400, unreadable]
		] as const) {
			const res = await send('/v1/monitors', encoding);
			expect(res.status).toBe(status);
			expect(await res.json()).toEqual({ error: { code: 'VALIDATION', message } });
		}
	});

	it('answers MCP with a JSON-RPC error', async () => {
		for (const [encoding, status, message] of [
			['br2', 415, unsupported],
			['gzip', 400, unreadable]
		] as const) {
			const res = await send('/mcp', encoding);
			expect(res.status).toBe(status);
			expect(await res.json()).toEqual({
				jsonrpc: '2.0',
				id: null,
				error: { code: -32000, message }
			});
		}
	});

	it('answers the OAuth endpoints with an RFC 6749 body', async () => {
		for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke'])
			for (const [encoding, status, message] of [
				['br2', 415, unsupported],
				['gzip', 400, unreadable]
			] as const) {
				const res = await send(path, encoding, 'application/x-www-form-urlencoded');
				expect(res.status).toBe(status);
				expect(await res.json()).toEqual({ error: 'invalid_request', error_description: message });
			}
	});

	it('answers a JSON-RPC method named after an Object member as an unknown method', async () => {
		for (const method of ['__proto__', 'constructor', 'toString']) {
			const res = await fetch(`${api.url}/mcp`, {
				method: 'POST',
				headers: {
					'x-service-key': key,
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					'mcp-protocol-version': '2025-11-25'
				},
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method })
			});
			expect(res.status).toBe(200);
			expect(await res.json()).toMatchObject({ id: 1, error: { code: -32601 } });
		}
	});
});
