import http2 from 'node:http2';
import { Code, ConnectError } from '@connectrpc/connect';
import { MonitorService } from '@upstate/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { createWorkspace } from './factories.ts';
import { client, type Protocol } from './rpc.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let writeKey: string;
let readKey: string;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	const ws = await createWorkspace(db);
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
});
afterAll(() => api.close());

describe('/rpc protocols', () => {
	it.each<Protocol>(['connect-json', 'connect-binary-h2', 'grpc', 'grpc-web'])(
		'%s: creates, reads, lists, updates and deletes a monitor',
		async (protocol) => {
			const write = client(MonitorService, api.url, writeKey, protocol);
			const read = client(MonitorService, api.url, readKey, protocol);
			const created = await write.createMonitor({
				type: 'http',
				name: `API ${protocol}`,
				periodicity: '1m',
				url: 'https://example.com/health',
				headers: [{ key: 'accept', value: 'application/json' }],
				degradedAt: 500
			});
			expect(created).toMatchObject({ name: `API ${protocol}`, timeout: 45000, degradedAt: 500 });
			const got = await read.getMonitor({ monitorId: created.id });
			expect(got.headers).toEqual([expect.objectContaining({ key: 'accept' })]);
			const list = await read.listMonitors({ perPage: 10 });
			expect(list.data.map((m) => m.id)).toContain(created.id);
			expect(list.pagination?.perPage).toBe(10);
			const updated = await write.updateMonitor({
				monitorId: created.id,
				name: 'renamed',
				headers: { values: [] },
				degradedAt: {}
			});
			expect(updated).toMatchObject({ name: 'renamed', headers: [] });
			expect(updated.degradedAt).toBeUndefined();
			expect(await write.deleteMonitor({ monitorId: created.id })).toMatchObject({
				id: created.id,
				deleted: true
			});
			const gone = await read.getMonitor({ monitorId: created.id }).catch((e: unknown) => e);
			expect(gone).toBeInstanceOf(ConnectError);
			expect(gone).toMatchObject({
				code: Code.NotFound,
				rawMessage: `monitor ${created.id} not found`
			});
		}
	);

	it('over HTTP/2 the port serves only RPCs, and says where REST is', async () => {
		const session = http2.connect(api.url);
		const req = session.request({ ':path': '/v1/monitors', 'x-service-key': readKey });
		const chunks: Buffer[] = [];
		const status = await new Promise<number>((resolve) => {
			req.on('response', (headers) => resolve(Number(headers[':status'])));
		});
		for await (const chunk of req) chunks.push(chunk as Buffer);
		session.close();
		expect(status).toBe(505);
		expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({
			error: {
				code: 'NOT_FOUND',
				message: 'over HTTP/2 this port serves only /rpc: use HTTP/1.1 for REST, MCP and OpenAPI'
			}
		});
	});
});
