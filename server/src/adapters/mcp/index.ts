import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
	CallToolRequestSchema,
	ErrorCode,
	ListResourcesRequestSchema,
	ListToolsRequestSchema,
	McpError,
	ReadResourceRequestSchema
} from '@modelcontextprotocol/sdk/types.js';
import type { Request, RequestHandler, Response } from 'express';
import type { Upstate } from '../../app.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { toServiceError } from '../../router/errors.ts';
import { callProcedure } from '../procedures.ts';
import { createOpenApiDocument } from '../rest/openapi.ts';
import { toServiceCtx } from './context.ts';
import { authenticate, type RateLimits, type RateVerdict } from '../rate-limit.ts';
import { mapError } from './errors.ts';
import { fetchRemote, publicResources } from './resources.ts';
import { buildTools, visibleTools, type McpTool } from './tools.ts';

// /mcp: stateless Streamable HTTP (spec 4.1). A fresh server and transport per request, so no
// mcp-session-id is ever issued; tools are generated from procedure meta.
export function createMcpHandler(args: { upstate: Upstate; limits: RateLimits }): RequestHandler {
	const tools = buildTools();
	const { urls } = args.upstate.config;
	return async (req, res) => {
		const auth = await authenticate({
			limits: args.limits,
			req,
			resolve: () => toServiceCtx(args.upstate, req)
		});
		if (!auth.ok) {
			if ('limited' in auth) return tooManyRequests(res, auth.limited);
			unauthorized(res, urls.api, auth.unauthorized.message);
			return;
		}
		const { ctx } = auth;
		const verdict = await args.limits.chargeCredential(ctx.service?.actor, toolCallCount(req.body));
		res.set(verdict.headers);
		if (!verdict.allowed) return tooManyRequests(res, verdict);
		if (req.method === 'GET' && String(req.headers.accept ?? '').includes('text/event-stream')) {
			// No server-initiated stream without sessions; a GET without the Accept header gets
			// the transport's 406 below.
			res
				.status(405)
				.set('Allow', 'POST')
				.json({
					jsonrpc: '2.0',
					error: { code: -32000, message: 'Method not allowed: this server is stateless' },
					id: null
				});
			return;
		}
		const server = buildServer(ctx, tools, urls);
		const transport = new StreamableHTTPServerTransport({
			sessionIdGenerator: undefined,
			enableJsonResponse: true
		});
		res.on('close', () => {
			void transport.close();
			void server.close();
		});
		await server.connect(transport);
		await transport.handleRequest(req, res, req.body);
	};
}

// Spec 7.2: a plain 429 with Retry-After, no JSON-RPC body.
function tooManyRequests(res: Response, verdict: RateVerdict): void {
	res.status(429).set(verdict.headers).end();
}

// Every tool call costs one, each call inside a JSON-RPC batch too; any other request costs one.
function toolCallCount(body: unknown): number {
	const messages = Array.isArray(body) ? body : [body];
	const calls = messages.filter(
		(m) =>
			typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call'
	).length;
	return Math.max(1, calls);
}

function unauthorized(res: Response, issuer: string, message: string): void {
	res
		.status(401)
		.set(
			'WWW-Authenticate',
			`Bearer resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp"`
		)
		.json({ jsonrpc: '2.0', error: { code: -32001, message }, id: null });
}

function buildServer(
	ctx: TrpcContext,
	tools: McpTool[],
	urls: { api: string; web: string }
): Server {
	const server = new Server(
		{ name: 'upstate', version: '1.0.0' },
		{ capabilities: { tools: {}, resources: {} } }
	);
	const visible = visibleTools(tools, ctx.service);
	server.setRequestHandler(ListToolsRequestSchema, async () => ({
		tools: visible.map((t) => t.tool)
	}));
	server.setRequestHandler(CallToolRequestSchema, async (request) => {
		const entry = tools.find((t) => t.tool.name === request.params.name);
		if (!entry) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
		const parsed = entry.procedure.input?.safeParse(request.params.arguments ?? {});
		if (parsed && !parsed.success) {
			throw new McpError(
				ErrorCode.InvalidParams,
				`invalid arguments for ${entry.tool.name}: ${toServiceError(parsed.error).message}`
			);
		}
		try {
			const result = (await callProcedure(ctx, entry.procedure.path, parsed?.data)) as Record<
				string,
				unknown
			>;
			return {
				content: [{ type: 'text', text: JSON.stringify(result) }],
				structuredContent: result
			};
		} catch (err) {
			return mapError(err);
		}
	});
	const resources = publicResources(urls);
	server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources }));
	server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
		const resource = resources.find((r) => r.uri === request.params.uri);
		if (!resource)
			throw new McpError(ErrorCode.InvalidParams, `unknown resource ${request.params.uri}`);
		const text =
			resource.name === 'openapi-specification'
				? JSON.stringify(createOpenApiDocument({ serverUrl: urls.api }))
				: await fetchRemote(resource.uri);
		return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
	});
	return server;
}
