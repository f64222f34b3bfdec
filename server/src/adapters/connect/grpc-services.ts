import { setTimeout as sleep } from 'node:timers/promises';
import { toBinary, type DescFile, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import * as api from '@upstate/proto';
import {
	Health,
	HealthCheckResponse_ServingStatus as Status,
	file_grpc_health_v1_health
} from '@upstate/proto/gen/grpc/health/v1/health_pb.js';
import * as v1 from '@upstate/proto/gen/grpc/reflection/v1/reflection_pb.js';
import * as v1alpha from '@upstate/proto/gen/grpc/reflection/v1alpha/reflection_pb.js';

// The two standard gRPC services next to ours at /rpc: health (grpc.health.v1) and server
// reflection (v1 and v1alpha), so grpcurl-like tools list and describe every service.
type Reflection = typeof v1;
type ReflectionRequest = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

function ownFiles(): DescFile[] {
	return (Object.values(api) as unknown[]).filter(
		(v): v is DescFile => (v as Partial<DescFile>)?.kind === 'file'
	);
}

// What reflection looks up: files by name, and the file that defines each symbol.
type Index = { files: Map<string, DescFile>; symbols: Map<string, DescFile>; services: string[] };

function indexOf(files: DescFile[]): Index {
	const index: Index = { files: new Map(), symbols: new Map(), services: [] };
	const addMessage = (file: DescFile, m: DescMessage) => {
		index.symbols.set(m.typeName, file);
		m.nestedMessages.forEach((n) => addMessage(file, n));
		m.nestedEnums.forEach((e) => index.symbols.set(e.typeName, file));
	};
	const visit = (file: DescFile) => {
		if (index.files.has(file.name)) return;
		index.files.set(file.name, file);
		file.messages.forEach((m) => addMessage(file, m));
		file.enums.forEach((e) => index.symbols.set(e.typeName, file));
		for (const s of file.services) {
			index.symbols.set(s.typeName, file);
			s.methods.forEach((m) => index.symbols.set(`${s.typeName}.${m.name}`, file));
		}
		file.dependencies.forEach(visit);
	};
	files.forEach(visit);
	index.services = files.flatMap((f) => f.services.map((s) => s.typeName)).sort();
	return index;
}

// The file and everything it imports, each once, as serialized FileDescriptorProtos.
function fileWithDependencies(file: DescFile): Uint8Array[] {
	const seen = new Map<string, DescFile>();
	const visit = (f: DescFile) => {
		if (seen.has(f.name)) return;
		seen.set(f.name, f);
		f.dependencies.forEach(visit);
	};
	visit(file);
	return [...seen.values()].map((f) => toBinary(FileDescriptorProtoSchema, f.proto));
}

function answer(index: Index, req: ReflectionRequest) {
	const notFound = (what: string) => ({
		case: 'errorResponse' as const,
		value: { errorCode: Code.NotFound, errorMessage: `${what} not found` }
	});
	const r = req.messageRequest;
	switch (r.case) {
		case 'listServices':
			return {
				case: 'listServicesResponse' as const,
				value: { service: index.services.map((name) => ({ name })) }
			};
		case 'fileByFilename': {
			const file = index.files.get(r.value);
			return file
				? {
						case: 'fileDescriptorResponse' as const,
						value: { fileDescriptorProto: fileWithDependencies(file) }
					}
				: notFound(`file ${r.value}`);
		}
		case 'fileContainingSymbol': {
			const file = index.symbols.get(r.value.replace(/^\./, ''));
			return file
				? {
						case: 'fileDescriptorResponse' as const,
						value: { fileDescriptorProto: fileWithDependencies(file) }
					}
				: notFound(`symbol ${r.value}`);
		}
		case 'allExtensionNumbersOfType':
			return {
				case: 'allExtensionNumbersResponse' as const,
				value: { baseTypeName: r.value, extensionNumber: [] }
			};
		default:
			return notFound('extension');
	}
}

function registerReflection(router: ConnectRouter, version: Reflection, index: Index): void {
	router.service(version.ServerReflection as typeof v1.ServerReflection, {
		async *serverReflectionInfo(requests) {
			for await (const req of requests)
				yield {
					validHost: req.host,
					originalRequest: req,
					messageResponse: answer(index, req)
				};
		}
	});
}

export function registerGrpcServices(router: ConnectRouter): void {
	const index = indexOf([
		...ownFiles(),
		file_grpc_health_v1_health,
		v1.file_grpc_reflection_v1_reflection,
		v1alpha.file_grpc_reflection_v1alpha_reflection
	]);
	const services = index.services;
	const statusOf = (service: string) => {
		if (service === '' || services.includes(service)) return Status.SERVING;
		throw new ConnectError(`unknown service ${service}`, Code.NotFound);
	};
	router.service(Health, {
		check: (req) => ({ status: statusOf(req.service) }),
		list: () => ({
			statuses: Object.fromEntries(services.map((s) => [s, { status: Status.SERVING }]))
		}),
		async *watch(req, context) {
			yield { status: statusOf(req.service) };
			// Nothing changes while the process runs: hold the stream until the client leaves.
			await sleep(2 ** 31 - 1, undefined, { signal: context.signal }).catch(() => undefined);
		}
	});
	registerReflection(router, v1, index);
	registerReflection(router, v1alpha as unknown as Reflection, index);
}
