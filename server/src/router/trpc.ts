import { initTRPC, TRPCError } from '@trpc/server';
import type { Upstate } from '../app.ts';
import type { Db } from '../db/client.ts';
import type { ServiceContext, Scope } from '../domain/context.ts';
import type { FeatureKey } from '../domain/limits.ts';
import { toServiceError } from './errors.ts';

// ---- context ---------------------------------------------------------------------------
// Adapters build this: the dashboard from a lucia session, REST and MCP from x-service-key.
export type SessionUser = { id: number; email: string };

export type TrpcContext = {
	upstate: Upstate; // process services (mailer, config, lucia) for the few verbs that need them
	db: Db;
	requestId: string;
	user: SessionUser | null; // a signed-in dashboard user
	sessionId: string | null;
	service: ServiceContext | null; // set when the caller acts inside a workspace
};

// ---- meta: one definition decides every exposure ---------------------------------------
export type RestMeta = {
	method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
	path: string; // `/v1/monitors/{monitorId}`: braces name input fields
	summary: string;
	tags: string[];
	successStatus?: number;
};
export type McpMeta = {
	name: string;
	description: string;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	// A plan key the tool needs: without it the tool is left out of tools/list (the verb
	// still answers LIMIT_EXCEEDED if it is called anyway).
	feature?: FeatureKey;
};
// /rpc names the RPC from the procedure (proto/README.md); `method` overrides the derived name,
// and a procedure without `rest` is exposed on /rpc only when it has this entry.
export type ConnectMeta = { method?: string };
export type Meta = { scope?: Scope; rest?: RestMeta; mcp?: McpMeta; connect?: ConnectMeta };

// ---- init -------------------------------------------------------------------------------
const t = initTRPC
	.context<TrpcContext>()
	.meta<Meta>()
	.create({
		errorFormatter({ shape, error }) {
			const serviceError = toServiceError(error);
			return {
				...shape,
				message: serviceError.message,
				data: { ...shape.data, upstateCode: serviceError.code, issues: serviceError.issues }
			};
		}
	});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

// ---- procedures -------------------------------------------------------------------------
// Domain errors travel as the TRPCError's cause; adapters read them back with toServiceError.
// Unknown errors are logged here once, with the procedure path.
const logInternalErrors = t.middleware(async ({ next, path }) => {
	const result = await next();
	if (!result.ok && toServiceError(result.error).code === 'INTERNAL') {
		console.error(
			`[trpc] internal error path=${path} ${result.error.cause?.stack ?? result.error.stack}`
		);
	}
	return result;
});

export const publicProcedure = t.procedure.use(logInternalErrors);

export const userProcedure = publicProcedure.use(({ ctx, next }) => {
	if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
	return next({ ctx: { ...ctx, user: ctx.user } });
});

const workspaceProcedure = publicProcedure.use(({ ctx, next }) => {
	if (!ctx.service)
		throw new TRPCError({ code: 'UNAUTHORIZED', message: 'a workspace credential is required' });
	return next({ ctx: { ...ctx, service: ctx.service } });
});

export const readProcedure = workspaceProcedure.meta({ scope: 'read' });
export const writeProcedure = workspaceProcedure.meta({ scope: 'write' });
