import path from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { createWorkspace } from './factories.ts';
import { PROTO_DIR } from './rpc.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// Plain gRPC with @grpc/grpc-js, as any gRPC tool would call: h2c, no path prefix, stubs
// loaded at run time from the committed .proto files, and server reflection.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let target: string;
let writeKey: string;
let readKey: string;

type Unary = (
	req: object,
	md: grpc.Metadata,
	cb: (err: grpc.ServiceError | null, res: unknown) => void
) => void;
type Stub = grpc.Client & Record<string, Unary>;
type Bidi = grpc.Client & {
	ServerReflectionInfo: () => grpc.ClientDuplexStream<object, Record<string, unknown>>;
};

function load(file: string) {
	const definition = protoLoader.loadSync(path.join(PROTO_DIR, file), {
		includeDirs: [PROTO_DIR],
		longs: Number,
		enums: String,
		defaults: false,
		oneofs: true
	});
	return grpc.loadPackageDefinition(definition);
}

function stub<T>(pkg: grpc.GrpcObject, name: string): T {
	const Ctor = name.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], pkg);
	// safe because loadPackageDefinition returns a client constructor at each service's name
	return new (Ctor as grpc.ServiceClientConstructor)(
		target,
		grpc.credentials.createInsecure()
	) as T;
}

const call = (client: Stub, method: string, req: object, key?: string) =>
	new Promise<Record<string, unknown>>((resolve, reject) => {
		const md = new grpc.Metadata();
		if (key) md.set('x-service-key', key);
		client[method](req, md, (err, res) =>
			err ? reject(err) : resolve(res as Record<string, unknown>)
		);
	});

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	target = api.url.replace('http://', '');
	const ws = await createWorkspace(db);
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
});
afterAll(() => api.close());

describe('/rpc over plain gRPC (@grpc/grpc-js)', () => {
	it('calls MonitorService with stubs loaded from proto/', async () => {
		const monitors = stub<Stub>(load('upstate/v1/monitor.proto'), 'upstate.v1.MonitorService');
		const created = await call(
			monitors,
			'CreateMonitor',
			{ type: 'tcp', name: 'db', periodicity: '5m', uri: 'db.example.com:5432', retry: 1 },
			writeKey
		);
		expect(created).toMatchObject({ type: 'tcp', name: 'db', retry: 1, timeout: 45000 });
		const list = await call(monitors, 'ListMonitors', { perPage: 5 }, readKey);
		expect(list).toMatchObject({ data: [expect.objectContaining({ id: created.id })] });
		const denied = await call(monitors, 'DeleteMonitor', { monitorId: created.id }, readKey).catch(
			(e: grpc.ServiceError) => e
		);
		expect(denied).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
		// Connect percent-encodes grpc-message fully; grpc-js decodes it with decodeURI, which
		// leaves `%3A` (grpcurl and grpc-go show the colon).
		expect(decodeURIComponent((denied as grpc.ServiceError).details)).toBe(
			'this credential is read-only: a write-scoped key is required'
		);
		const anonymous = await call(monitors, 'ListMonitors', {}).catch((e: grpc.ServiceError) => e);
		expect(anonymous).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
		const invalid = await call(monitors, 'GetMonitor', { monitorId: -1 }, readKey).catch(
			(e: grpc.ServiceError) => e
		);
		expect(invalid).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
		expect(decodeURIComponent((invalid as grpc.ServiceError).details)).toMatch(/^monitorId: /);
		monitors.close();
	});

	it('answers the standard health check without a key', async () => {
		const health = stub<Stub>(load('grpc/health/v1/health.proto'), 'grpc.health.v1.Health');
		expect(await call(health, 'Check', { service: '' })).toEqual({ status: 'SERVING' });
		expect(await call(health, 'Check', { service: 'upstate.v1.MonitorService' })).toEqual({
			status: 'SERVING'
		});
		const unknown = await call(health, 'Check', { service: 'nope.Service' }).catch(
			(e: grpc.ServiceError) => e
		);
		expect(unknown).toMatchObject({ code: grpc.status.NOT_FOUND });
		health.close();
	});

	it.each(['v1', 'v1alpha'])(
		'lists and describes every service by reflection %s',
		async (version) => {
			const reflection = stub<Bidi>(
				load(`grpc/reflection/${version}/reflection.proto`),
				`grpc.reflection.${version}.ServerReflection`
			);
			const stream = reflection.ServerReflectionInfo();
			const answers: Array<Record<string, unknown>> = [];
			const done = new Promise<void>((resolve, reject) => {
				stream.on('data', (a: Record<string, unknown>) => answers.push(a));
				stream.on('end', resolve);
				stream.on('error', reject);
			});
			stream.write({ listServices: '' });
			stream.write({ fileContainingSymbol: 'upstate.v1.MonitorService' });
			stream.write({ fileContainingSymbol: 'upstate.v1.StatusReportService.ResolveStatusReport' });
			stream.write({ fileByFilename: 'nope.proto' });
			stream.end();
			await done;
			const [list, monitor, report, missing] = answers;
			const services = (
				list.listServicesResponse as { service: Array<{ name: string }> }
			).service.map((s) => s.name);
			expect(services).toEqual(
				expect.arrayContaining([
					'upstate.v1.MonitorService',
					'upstate.v1.StatusPageService',
					'upstate.v1.WorkspaceService',
					'grpc.health.v1.Health',
					`grpc.reflection.v1.ServerReflection`
				])
			);
			expect(services.filter((s) => s.startsWith('upstate.v1.'))).toHaveLength(16);
			const files = (answer: Record<string, unknown>) =>
				(
					answer.fileDescriptorResponse as { fileDescriptorProto: Buffer[] }
				).fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
			const described = files(monitor);
			expect(described.map((f) => f.name)).toEqual(
				expect.arrayContaining(['upstate/v1/monitor.proto', 'upstate/v1/common.proto'])
			);
			expect(described[0].service[0].method.map((m) => m.name)).toContain('ListMonitors');
			expect(files(report)[0].name).toBe('upstate/v1/status_report.proto');
			expect(missing.errorResponse).toMatchObject({ errorCode: 5 });
			reflection.close();
		}
	);
});
