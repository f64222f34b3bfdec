import {
	createMcpHandler as createModernHandler,
	isLegacyRequest,
	WebStandardStreamableHTTPServerTransport
} from '@modelcontextprotocol/server';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Upstate } from '../../app.ts';
import type { TrpcContext } from '../../router/trpc.ts';
import { bodyReadError } from '../body-errors.ts';
import { admit, chargeCall, originOf, type RateLimits, type RateVerdict } from '../rate-limit.ts';
import { toServiceCtx } from './context.ts';
import {
	jsonRpcError,
	malformedParams,
	rejectForeignOrigin,
	sendWebResponse,
	requestCost,
	toWebRequest
} from './http.ts';
import { buildServer } from './server.ts';
import { buildTools } from './tools.ts';

export const MCP_BODY_LIMIT = '1mb';

// /mcp: stateless Streamable HTTP (spec 4.1) for both protocol revisions. 2025-11-25 traffic
// (initialize, no per-request _meta) goes to the SDK's streamable transport with no session id;
// 2026-07-28 traffic (per-request _meta, server/discover, Mcp-Method/Mcp-Name checked against
// the body, resultType) to the SDK's per-request handler. Order: Host/Origin (403), credentials
// (401), method (405/406), body (413, -32700), rate limit (429), params (-32602), the SDK.
export function createMcpHandler(args: { upstate: Upstate; limits: RateLimits }): RequestHandler[] {
	const tools = buildTools();
	const { config } = args.upstate;
	const readBody = express.text({ type: () => true, limit: MCP_BODY_LIMIT });
	// The caller's context, from the credential check to the serving step of the same request.
	const contexts = new WeakMap<Request, TrpcContext>();
	const gate: RequestHandler = async (req, res, next) => {
		const foreign = rejectForeignOrigin(req, allowedOrigins(config));
		if (foreign) return jsonRpcError(res, 403, -32000, `Forbidden: ${foreign}`);
		const auth = await admit({
			limits: args.limits,
			origin: originOf(req),
			resolve: () => toServiceCtx(args.upstate, req),
			cost: 'later' // charged by its body, once read (serve)
		});
		if (!auth.ok) {
			if ('limited' in auth) return tooManyRequests(res, auth.limited);
			return unauthorized(res, config.urls.api, auth.unauthorized.message, presentsBearer(req));
		}
		if (req.method !== 'POST') return notStreaming(req, res);
		contexts.set(req, auth.ctx);
		next();
	};
	const serve: RequestHandler = async (req, res) => {
		const ctx = contexts.get(req);
		if (!ctx) throw new Error('mcp: serve ran without a credential check');
		const text = typeof req.body === 'string' ? req.body : '';
		let body: unknown;
		try {
			body = JSON.parse(text);
		} catch {
			return jsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
		}
		const charged = await chargeCall(args.limits, ctx, requestCost(body));
		if (!charged.ok) return tooManyRequests(res, charged.limited);
		res.set(charged.headers);
		const malformed = malformedParams(body);
		if (malformed.length) {
			res.json(Array.isArray(body) ? malformed : malformed[0]);
			return;
		}
		const request = toWebRequest(req, text);
		const server = () => buildServer(ctx, tools, config.urls);
		if (await isLegacyRequest(request, body)) {
			const transport = new WebStandardStreamableHTTPServerTransport({
				sessionIdGenerator: undefined,
				enableJsonResponse: true
			});
			const legacy = server();
			await legacy.connect(transport);
			res.on('close', () => void legacy.close());
			return sendWebResponse(res, await transport.handleRequest(request, { parsedBody: body }));
		}
		const modern = createModernHandler(server, { legacy: 'reject' });
		sendWebResponse(res, await modern.fetch(request, { parsedBody: body }));
	};
	return [gate, readBody, serve];
}

// Errors before the SDK (the body parser's 413, anything unexpected) as JSON-RPC errors.
export const mcpErrorHandler: express.ErrorRequestHandler = (err, _req, res, _next) => {
	const e = err as { type?: string; limit?: number };
	if (e.type === 'entity.too.large')
		return jsonRpcError(
			res,
			413,
			-32000,
			`Payload Too Large: the body must not exceed ${e.limit} bytes`
		);
	if (e.type === 'entity.parse.failed' || e.type === 'charset.unsupported')
		return jsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
	const unread = bodyReadError(err);
	if (unread) return jsonRpcError(res, unread.status, -32000, unread.message);
	console.error(`[mcp] internal error ${err instanceof Error ? err.stack : String(err)}`);
	jsonRpcError(res, 500, -32603, 'internal error');
};

// The API server's own host, the product's origins, and MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS.
// Read per request: tests start the server on a random port and set urls.api afterwards.
// A loopback issuer accepts every loopback name: a rebinding attack needs a foreign hostname.
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
function allowedOrigins(config: Upstate['config']): { hosts: string[]; origins: string[] } {
	const names = (u: string) => {
		const { hostname } = new URL(u);
		return LOOPBACK.includes(hostname) ? LOOPBACK : [hostname];
	};
	const { api, dashboard, consent } = config.urls;
	return {
		hosts: [...names(api), ...config.mcp.allowedHosts],
		origins: [...names(api), ...names(dashboard), ...names(consent), ...config.mcp.allowedOrigins]
	};
}

// Spec 7.2: a plain 429 with Retry-After, no JSON-RPC body.
function tooManyRequests(res: Response, verdict: RateVerdict): void {
	res.status(429).set(verdict.headers).end();
}

// No server-initiated stream without sessions: GET with Accept: text/event-stream is 405, any
// other GET 406 (spec 7.2); DELETE has no session to end.
function notStreaming(req: Request, res: Response): void {
	const wantsStream = String(req.headers.accept ?? '').includes('text/event-stream');
	if (req.method === 'GET' && !wantsStream)
		return jsonRpcError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
	res.set('Allow', 'POST');
	jsonRpcError(res, 405, -32000, 'Method not allowed: this server is stateless');
}

// An access token was presented (and no key header, which would win): its 401 says
// error="invalid_token" (RFC 6750 3.1), so the client refreshes or connects again instead of
// starting over as if it had sent nothing.
const presentsBearer = (req: Request) =>
	!req.header('x-service-key') && /^Bearer\s/i.test(req.header('authorization') ?? '');

function unauthorized(res: Response, issuer: string, message: string, badToken: boolean): void {
	const invalid = badToken
		? `error="invalid_token", error_description="${message.replace(/["\\]/g, '')}", `
		: '';
	res
		.status(401)
		.set(
			'WWW-Authenticate',
			`Bearer ${invalid}resource_metadata="${issuer.replace(/\/$/, '')}/.well-known/oauth-protected-resource/mcp", scope="read write"`
		)
		.json({ jsonrpc: '2.0', error: { code: -32001, message }, id: null });
}
