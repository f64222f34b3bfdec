import type http from 'node:http';
import type http2 from 'node:http2';
import {
	fromJson,
	toJson,
	type DescMessage,
	type DescMethodUnary,
	type DescService,
	type MessageShape,
	type JsonValue
} from '@bufbuild/protobuf';
import {
	Code,
	ConnectError,
	createContextKey,
	createContextValues,
	type ConnectRouter,
	type HandlerContext,
	type Interceptor
} from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import * as api from '@upstate/proto';
import type { Upstate } from '../../app.ts';
import { callProcedure } from '../procedures.ts';
import {
	admit,
	limitMessage,
	originOf,
	type ClientOrigin,
	type RateLimits
} from '../rate-limit.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { decodeInput, encodeOutput } from './codec.ts';
import { toServiceCtx } from './context.ts';
import { mapError } from './errors.ts';
import { buildProtoModel, PROTO_PACKAGE, type ProtoModel, type ProtoRpc } from './proto.ts';
import { registerGrpcServices } from './grpc-services.ts';

// /rpc, generated: one Connect handler per procedure the proto model exposes (proto/README.md).
// Served with the Connect protocol (JSON and binary), gRPC-Web and gRPC under `/rpc/`, and at
// the server's root for gRPC clients that cannot take a path prefix (grpcurl, grpc-js, grpc-go).
export const RPC_PREFIX = '/rpc';
export const RPC_READ_MAX_BYTES = 1024 * 1024;
const ROOT_RPC_PATH = /^\/(upstate\.v1|grpc\.health\.v1|grpc\.reflection\.v1(alpha)?)\.\w+\/\w+$/;

type Json = Record<string, unknown>;
export type RpcHandler = {
	handles: (path: string) => boolean;
	handle: (
		req: http.IncomingMessage | http2.Http2ServerRequest,
		res: http.ServerResponse | http2.Http2ServerResponse
	) => void;
};

// Every error leaves through the one mapping.
const mapErrors: Interceptor = (next) => async (req) => {
	try {
		return await next(req);
	} catch (err) {
		throw mapError(err);
	}
};

// connect-es 2.2 reports a request body that does not parse as the binary message as INTERNAL
// ("parse binary: …"), before any interceptor sees it. On all three protocols it aborts the
// handler context with that error before writing the status, so this listener (set by the gate,
// which runs before the body is read) re-codes it: client garbage is INVALID_ARGUMENT (HTTP 400
// on Connect, gRPC status 3), as malformed JSON already is.
function badBodyIsInvalidArgument(context: HandlerContext): void {
	const { signal } = context;
	signal.addEventListener(
		'abort',
		() => {
			const e: unknown = signal.reason;
			if (!(e instanceof ConnectError) || e.code !== Code.Internal) return;
			if (!e.rawMessage.startsWith('parse binary:')) return;
			const rawMessage = `malformed request body (${e.rawMessage}): send a binary ${context.method.input.typeName} message`;
			// safe because ConnectError's code and messages are plain fields, read after the abort
			Object.assign(e, {
				code: Code.InvalidArgument,
				rawMessage,
				message: `[invalid_argument] ${rawMessage}`
			});
		},
		{ once: true }
	);
}

function generatedServices(): Map<string, DescService> {
	const out = new Map<string, DescService>();
	for (const value of Object.values(api) as unknown[]) {
		const desc = value as Partial<DescService>;
		if (desc?.kind === 'service' && desc.typeName) out.set(desc.typeName, desc as DescService);
	}
	return out;
}

// A mismatch between the router and the generated code fails the boot, not a call (rule 12).
function methodFor(
	generated: Map<string, DescService>,
	service: string,
	rpc: ProtoRpc
): DescMethodUnary {
	const method = generated
		.get(`${PROTO_PACKAGE}.${service}`)
		?.methods.find((m) => m.name === rpc.method);
	if (
		method?.methodKind !== 'unary' ||
		method.input.name !== rpc.request ||
		method.output.name !== rpc.response
	)
		throw new Error(
			`/rpc: ${service}/${rpc.method} (procedure ${rpc.procedure.path}) is not in proto/gen: run \`npm run gen:proto\``
		);
	// safe because methodKind was checked just above (DescMethod does not narrow on it)
	return method as DescMethodUnary;
}

const kOrigin = createContextKey<ClientOrigin>(
	{ socketAddress: '', forwardedFor: null },
	{ description: 'client origin' }
);
const kCaller = createContextKey<TrpcContext | undefined>(undefined, { description: 'caller' });

// The same admission as REST and MCP: a failed credential is charged to the client's address,
// a call to its credential's budget (shared across the port); over it, RESOURCE_EXHAUSTED
// (HTTP 429 on the Connect protocol) with Retry-After and the RateLimit headers.
async function admitRpc(
	upstate: Upstate,
	limits: RateLimits,
	context: HandlerContext
): Promise<TrpcContext> {
	const auth = await admit({
		limits,
		origin: context.values.get(kOrigin),
		resolve: () => toServiceCtx(upstate, context.requestHeader),
		cost: 1
	});
	if (!auth.ok) {
		if ('unauthorized' in auth) throw auth.unauthorized;
		throw new ConnectError(
			limitMessage(auth.limited),
			Code.ResourceExhausted,
			auth.limited.headers
		);
	}
	for (const [name, value] of Object.entries(auth.headers)) context.responseHeader.set(name, value);
	return auth.ctx;
}

type Deps = { upstate: Upstate; limits: RateLimits };

function registerProcedures(router: ConnectRouter, deps: Deps, model: ProtoModel): void {
	const generated = generatedServices();
	for (const service of model.services)
		for (const rpc of service.rpcs) {
			const method = methodFor(generated, service.name, rpc);
			const impl = async (req: MessageShape<DescMessage>, context: HandlerContext) => {
				const ctx = context.values.get(kCaller);
				if (!ctx) throw new Error(`/rpc: ${rpc.method} ran without the request gate`);
				const input = decodeInput(model, rpc.request, toJson(method.input, req) as Json);
				const result = await callProcedure(ctx, rpc.procedure.path, input);
				return fromJson(
					method.output,
					encodeOutput(model, rpc.response, result as Json) as JsonValue
				);
			};
			// safe because methodFor checked the method is unary with exactly these message types
			router.rpc(method, impl as never);
		}
}

function adapter(deps: Deps, prefix: string | undefined) {
	const model = buildProtoModel();
	return connectNodeAdapter({
		requestPathPrefix: prefix,
		interceptors: [mapErrors],
		contextValues: (req) => createContextValues().set(kOrigin, originOf(req)),
		jsonOptions: { ignoreUnknownFields: false },
		// Credential and rate limit before the body is read, decompressed or parsed: a caller
		// without a key costs no parsing and hears UNAUTHENTICATED whatever it sent. Health and
		// reflection are public. Runs outside the interceptors, so it maps its own errors. It also
		// arms the re-coding of unparsable bodies (badBodyIsInvalidArgument).
		requestGate: async (context) => {
			badBodyIsInvalidArgument(context);
			if (!context.service.typeName.startsWith(`${PROTO_PACKAGE}.`)) return;
			try {
				context.values.set(kCaller, await admitRpc(deps.upstate, deps.limits, context));
			} catch (err) {
				throw mapError(err);
			}
		},
		// Connect's default is 4 GiB, read before any credential check: the limit REST and MCP
		// have (a larger message is RESOURCE_EXHAUSTED, as gRPC answers it).
		readMaxBytes: RPC_READ_MAX_BYTES,
		routes(router) {
			registerProcedures(router, deps, model);
			registerGrpcServices(router);
		}
	});
}

export function createRpcHandler(args: Deps): RpcHandler {
	const prefixed = adapter(args, RPC_PREFIX);
	const root = adapter(args, undefined);
	return {
		handles: (path) => path.startsWith(`${RPC_PREFIX}/`) || ROOT_RPC_PATH.test(path.split('?')[0]),
		handle: (req, res) => ((req.url ?? '').startsWith(`${RPC_PREFIX}/`) ? prefixed : root)(req, res)
	};
}
