import * as grpc from '@grpc/grpc-js';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCert } from '../../test/servers.ts';
import { checkGrpc } from './grpc.ts';
import type { GrpcMonitor } from './types.ts';

type Started = { port: number; server: grpc.Server };

async function start(
	setup: (server: grpc.Server) => void,
	creds = grpc.ServerCredentials.createInsecure()
): Promise<Started> {
	const server = new grpc.Server();
	setup(server);
	const port = await new Promise<number>((resolve, reject) =>
		server.bindAsync('127.0.0.1:0', creds, (err, p) => (err ? reject(err) : resolve(p)))
	);
	return { port, server };
}

const health = (server: grpc.Server) =>
	new HealthImplementation({
		'': 'SERVING',
		'svc-ok': 'SERVING',
		'svc-down': 'NOT_SERVING'
	}).addToServer(server);
let plain: Started;
let bare: Started;
let hanging: Started;
let guarded: Started;
let tls: Started;
let notFound: Started;

beforeAll(async () => {
	plain = await start(health);
	bare = await start(() => {});
	hanging = await start((s) => s.addService(healthService, { Check: () => {}, Watch: () => {} }));
	guarded = await start((s) =>
		s.addService(healthService, {
			Check: (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) =>
				cb(null, {
					status:
						call.metadata.get('authorization')[0] === 'Bearer t0ken' ? 'SERVING' : 'NOT_SERVING'
				}),
			Watch: () => {}
		})
	);
	// Answers every Check with the NOT_FOUND status code, as health servers do for an unknown name.
	notFound = await start((s) =>
		s.addService(healthService, {
			Check: (_call: unknown, cb: grpc.sendUnaryData<unknown>) =>
				cb({ code: grpc.status.NOT_FOUND, details: 'unknown service' }),
			Watch: () => {}
		})
	);
	const { key, cert } = selfSignedCert();
	tls = await start(
		health,
		grpc.ServerCredentials.createSsl(null, [
			{ private_key: Buffer.from(key), cert_chain: Buffer.from(cert) }
		])
	);
});
afterAll(() => {
	for (const s of [plain, bare, hanging, guarded, tls, notFound]) s?.server.forceShutdown();
});

const monitor = (port: number, extra: Partial<GrpcMonitor> = {}): GrpcMonitor => ({
	id: 7,
	name: 'g',
	type: 'grpc',
	periodicity: '1m',
	timeout: 3000,
	degraded_at: null,
	retry: 0,
	uri: `127.0.0.1:${port}`,
	service: '',
	tls: 'plaintext',
	metadata: [],
	...extra
});

describe('grpc check (spec 3.1)', () => {
	it('SERVING is up, with phase timings; slow SERVING is degraded', async () => {
		const r = await checkGrpc(monitor(plain.port, { service: 'svc-ok' }));
		expect(r).toMatchObject({
			outcome: 'success',
			grpcStatus: 'SERVING',
			statusCode: 1,
			attempts: 1
		});
		expect(r.timing).toMatchObject({
			dns: expect.any(Number),
			connect: expect.any(Number),
			ttfb: expect.any(Number)
		});
		expect((await checkGrpc(monitor(plain.port, { degraded_at: 0 }))).outcome).toBe('degraded');
	});

	it('NOT_SERVING and an unknown service are down without retry', async () => {
		expect(await checkGrpc(monitor(plain.port, { service: 'svc-down', retry: 3 }))).toMatchObject({
			outcome: 'error',
			grpcStatus: 'NOT_SERVING',
			attempts: 1
		});
		const unknown = await checkGrpc(
			monitor(plain.port, { service: 'grpc.health.v1.Health', retry: 3 })
		);
		expect(unknown).toMatchObject({ outcome: 'error', grpcStatus: 'SERVICE_UNKNOWN', attempts: 1 });
	});

	it('the NOT_FOUND status code is SERVICE_UNKNOWN, down without retry (spec 3.1)', async () => {
		const r = await checkGrpc(monitor(notFound.port, { service: 'billing', retry: 3 }));
		expect(r).toMatchObject({
			outcome: 'error',
			grpcStatus: 'SERVICE_UNKNOWN',
			attempts: 1,
			error: 'unknown service "billing"'
		});
	});

	it('UNIMPLEMENTED when no health service is registered', async () => {
		const r = await checkGrpc(monitor(bare.port, { retry: 3 }));
		expect(r).toMatchObject({
			outcome: 'error',
			grpcStatus: 'UNIMPLEMENTED',
			attempts: 1,
			error: 'the server has no health service (UNIMPLEMENTED)'
		});
	});

	it('DEADLINE_EXCEEDED when the server does not answer in time', async () => {
		expect(await checkGrpc(monitor(hanging.port, { timeout: 300 }))).toMatchObject({
			outcome: 'error',
			grpcStatus: 'DEADLINE_EXCEEDED'
		});
	});

	it('UNAVAILABLE on a refused connection, retried', async () => {
		expect(await checkGrpc(monitor(1, { retry: 2, timeout: 5000 }))).toMatchObject({
			outcome: 'error',
			grpcStatus: 'UNAVAILABLE',
			attempts: 3
		});
	});

	it('sends metadata as HTTP/2 headers', async () => {
		expect((await checkGrpc(monitor(guarded.port))).grpcStatus).toBe('NOT_SERVING');
		expect(
			(
				await checkGrpc(
					monitor(guarded.port, { metadata: [{ key: 'authorization', value: 'Bearer t0ken' }] })
				)
			).grpcStatus
		).toBe('SERVING');
	});

	it('TLS: verification fails on a self-signed certificate, skip-verify passes, plaintext is UNAVAILABLE', async () => {
		const verify = await checkGrpc(monitor(tls.port, { tls: 'verify' }));
		expect(verify).toMatchObject({
			outcome: 'error',
			grpcStatus: 'UNAVAILABLE',
			error: 'certificate verification failed'
		});
		expect(JSON.stringify(verify)).not.toMatch(/CN=|localhost|BEGIN/);
		expect(await checkGrpc(monitor(tls.port, { tls: 'skip-verify' }))).toMatchObject({
			outcome: 'success',
			grpcStatus: 'SERVING'
		});
		expect(await checkGrpc(monitor(tls.port, { tls: 'plaintext', timeout: 2000 }))).toMatchObject({
			outcome: 'error',
			grpcStatus: 'UNAVAILABLE'
		});
	});

	it('times TCP connect and the TLS handshake apart over TLS; h2c has no tls phase', async () => {
		const sum = (t: object) => Object.values(t).reduce((a: number, b: number) => a + b, 0);
		const secure = await checkGrpc(monitor(tls.port, { tls: 'skip-verify' }));
		expect(secure.grpcStatus).toBe('SERVING');
		expect(secure.timing).toMatchObject({
			dns: expect.any(Number),
			connect: expect.any(Number),
			tls: expect.any(Number),
			ttfb: expect.any(Number)
		});
		expect(secure.timing?.tls).toBeGreaterThan(0);
		// The phases split the attempt's latency (rounded to 0.01 ms) without gap or overlap.
		expect(sum(secure.timing ?? {})).toBeCloseTo(secure.latency, 1);
		const plaintext = await checkGrpc(monitor(plain.port));
		expect(plaintext.grpcStatus).toBe('SERVING');
		expect(plaintext.timing).not.toHaveProperty('tls');
		expect(plaintext.timing?.connect).toBeGreaterThan(0);
		expect(sum(plaintext.timing ?? {})).toBeCloseTo(plaintext.latency, 1);
	});

	it('TLS against a plaintext (h2c) server is a connection failure, not a certificate one', async () => {
		expect(await checkGrpc(monitor(plain.port, { tls: 'verify' }))).toMatchObject({
			outcome: 'error',
			grpcStatus: 'UNAVAILABLE',
			error: 'connection failed'
		});
	});

	it('reports metadata grpc-js cannot send as an error result naming the key, without its value', async () => {
		const bad = async (key: string, value = 's3cret') => {
			const r = await checkGrpc(monitor(plain.port, { metadata: [{ key, value }], retry: 3 }));
			expect(r).toMatchObject({ outcome: 'error', attempts: 1 });
			expect(JSON.stringify(r)).not.toContain('s3cret');
			return r.error;
		};
		expect(await bad('x-trace-bin')).toBe(
			'invalid metadata key "x-trace-bin": keys ending in -bin carry binary values'
		);
		expect(await bad('x trace')).toBe(
			`invalid metadata key "x trace": use only letters, digits, '-', '_' and '.'`
		);
		expect(await bad('authorization', 'Bearer s3cret\n')).toBe(
			'invalid metadata value for "authorization": control characters are not allowed'
		);
	});
});
