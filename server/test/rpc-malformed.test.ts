import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from './db.ts';
import { createWorkspace } from './factories.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// Bytes that are not the binary request message are the client's mistake: INVALID_ARGUMENT on
// every protocol (connect-es alone would answer INTERNAL), never a 500, and the gate still
// comes first (no key: UNAUTHENTICATED whatever the body).
let api: Awaited<ReturnType<typeof startApi>>;
let key: string;
const METHOD = '/upstate.v1.MonitorService/GetMonitor';
// An unknown wire type 7, and a length-delimited field cut short.
const BODIES = [Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from([0x0a, 0x10, 0x41])];

beforeAll(async () => {
	const { db } = await createTestDb();
	api = await startApi(createTestUpstate(db));
	key = await issueKey(db, await createWorkspace(db), 'read');
});
afterAll(() => api.close());

const envelope = (body: Buffer) => {
	const head = Buffer.alloc(5);
	head.writeUInt32BE(body.length, 1);
	return Buffer.concat([head, body]);
};

describe('/rpc refuses a malformed binary body with INVALID_ARGUMENT', () => {
	it.each(BODIES)('Connect protocol, binary (%#): HTTP 400 invalid_argument', async (body) => {
		const res = await fetch(`${api.url}/rpc${METHOD}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/proto',
				'connect-protocol-version': '1',
				'x-service-key': key
			},
			body
		});
		expect(res.status).toBe(400);
		const error = (await res.json()) as { code: string; message: string };
		expect(error.code).toBe('invalid_argument');
		expect(error.message).toMatch(
			/^malformed request body \(parse binary: .+\): send a binary upstate\.v1\.GetMonitorRequest message$/
		);
	});

	it.each(BODIES)('gRPC-Web (%#): grpc-status 3 in the trailer', async (body) => {
		const res = await fetch(`${api.url}/rpc${METHOD}`, {
			method: 'POST',
			headers: { 'content-type': 'application/grpc-web+proto', 'x-service-key': key },
			body: envelope(body)
		});
		expect(res.status).toBe(200);
		const bytes = Buffer.from(await res.arrayBuffer());
		expect(bytes[0]).toBe(0x80); // the trailer frame, no message before it
		const trailer = bytes.subarray(5, 5 + bytes.readUInt32BE(1)).toString();
		expect(trailer).toMatch(/grpc-status: ?3\r\n/);
		expect(decodeURIComponent(trailer)).toContain('malformed request body');
	});

	it.each(BODIES)(
		'gRPC over @grpc/grpc-js (%#): status 3, and the key is still checked first',
		async (body) => {
			const client = new grpc.Client(
				api.url.replace('http://', ''),
				grpc.credentials.createInsecure()
			);
			const send = (md: grpc.Metadata) =>
				new Promise<grpc.ServiceError | null>((resolve) =>
					client.makeUnaryRequest(
						METHOD,
						(b: Buffer) => b,
						(b: Buffer) => b,
						body,
						md,
						(err) => resolve(err)
					)
				);
			const md = new grpc.Metadata();
			md.set('x-service-key', key);
			const err = await send(md);
			expect(err?.code).toBe(grpc.status.INVALID_ARGUMENT);
			expect(decodeURIComponent(err?.details ?? '')).toContain('malformed request body');
			expect((await send(new grpc.Metadata()))?.code).toBe(grpc.status.UNAUTHENTICATED);
			client.close();
		}
	);

	it('still answers a well-formed binary body', async () => {
		// monitorId = 999999 (field 1, varint): a real lookup, NOT_FOUND in this workspace
		const res = await fetch(`${api.url}/rpc${METHOD}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/proto',
				'connect-protocol-version': '1',
				'x-service-key': key
			},
			body: Buffer.from([0x08, 0xbf, 0x84, 0x3d])
		});
		expect(res.status).toBe(404);
		expect(((await res.json()) as { code: string }).code).toBe('not_found');
	});
});
