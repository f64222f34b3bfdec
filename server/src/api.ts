import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import express from 'express';
import type { Upstate } from './app.ts';
import { bodyReadError } from './adapters/body-errors.ts';
import { createRpcHandler, type RpcHandler } from './adapters/connect/index.ts';
import { createMcpHandler, mcpErrorHandler } from './adapters/mcp/index.ts';
import { llmsTxt, mcpReferenceMarkdown } from './adapters/mcp/reference.ts';
import { buildTools } from './adapters/mcp/tools.ts';
import { createRateLimits, type RateLimits } from './adapters/rate-limit.ts';
import { createRestRouter } from './adapters/rest/index.ts';
import { mapError } from './adapters/rest/errors.ts';
import { createOpenApiDocument } from './adapters/rest/openapi.ts';
import { createPipesRouter } from './analytics/pipes.ts';
import { ValidationError } from './domain/errors.ts';
import { createOAuthRouter } from './oauth/index.ts';
import { createSlackAgent, type SlackAgent } from './slack/agent.ts';

function logRequests(
	req: { method?: string; url?: string },
	res: { statusCode: number; on: (event: 'finish', fn: () => void) => unknown }
): void {
	const started = performance.now();
	res.on('finish', () => {
		console.log(
			`[api] ${req.method} ${(req.url ?? '').split('?')[0]} status=${res.statusCode} ms=${Math.round(performance.now() - started)}`
		);
	});
}

// The API server (port 3001) over HTTP/1.1: REST v1, /openapi.json, /rpc,
// /mcp and its OAuth server (/oauth, /.well-known).
export function createApiServer(args: {
	upstate: Upstate;
	limits?: RateLimits;
	rpc?: RpcHandler;
	slack?: SlackAgent;
}): express.Express {
	// One limiter for the whole port: REST, MCP and /rpc share each credential's budget.
	const limits = args.limits ?? limitsFor(args.upstate);
	const rpc = args.rpc ?? createRpcHandler({ ...args, limits });
	const app = express();
	app.disable('x-powered-by');
	app.use((req, res, next) => {
		logRequests(req, res);
		next();
	});
	app.use(createOAuthRouter({ ...args, limits }));
	// The Slack agent signs the raw body: read as text, before any parser.
	const slack = args.slack ?? createSlackAgent(args.upstate);
	app.post(
		['/slack/events', '/slack/interactions'],
		express.text({ type: () => true, limit: '1mb' }),
		async (req, res, next) => {
			try {
				const handle = req.path === '/slack/events' ? slack.events : slack.interactions;
				const answer = await handle({
					header: (name) => req.get(name) ?? null,
					body: typeof req.body === 'string' ? req.body : ''
				});
				res
					.status(answer.status)
					.type(answer.contentType ?? 'text/plain')
					.send(answer.body);
			} catch (err) {
				next(err);
			}
		}
	);
	// Before the JSON body parser: Connect reads its own bodies (application/json included).
	app.use((req, res, next) => (rpc.handles(req.path) ? rpc.handle(req, res) : next()));
	// /mcp reads its own body after the credential check (401 before 413 or -32700).
	app.all('/mcp', ...createMcpHandler({ ...args, limits }), mcpErrorHandler);
	app.use(express.json({ limit: '1mb' }));
	const openapi = createOpenApiDocument({ serverUrl: args.upstate.config.urls.api });
	app.get('/openapi.json', (_req, res) => {
		res.json(openapi);
	});
	// The documents the MCP resources point at (spec 4.1), generated from the tool registry.
	const tools = buildTools();
	app.get('/docs/reference/mcp-server', (_req, res) => {
		res.type('text/markdown').send(mcpReferenceMarkdown(tools, args.upstate.config.urls.api));
	});
	app.get('/llms.txt', (_req, res) => {
		const { api, web, dashboard } = args.upstate.config.urls;
		res.type('text/plain').send(llmsTxt({ api, docs: web ?? api, dashboard }));
	});
	app.get('/healthz', (_req, res) => {
		res.json({ ok: true });
	});
	app.use(
		createPipesRouter({
			analytics: args.upstate.analytics,
			token: args.upstate.config.analytics.apiKey
		})
	);
	app.use(createRestRouter({ ...args, limits }));
	app.use((_req, res) => {
		res
			.status(404)
			.json({ error: { code: 'NOT_FOUND', message: 'no such route: see /openapi.json' } });
	});
	// Malformed JSON bodies and anything else thrown before a route: the same envelope.
	app.use(
		(err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
			if ((err as { type?: string })?.type === 'entity.too.large') {
				res.status(413).json({
					error: { code: 'VALIDATION', message: 'request body too large: the limit is 1 MB' }
				});
				return;
			}
			const unread = bodyReadError(err);
			if (unread) {
				res.status(unread.status).json({ error: { code: 'VALIDATION', message: unread.message } });
				return;
			}
			const isBadJson =
				err instanceof SyntaxError || (err as { type?: string })?.type === 'entity.parse.failed';
			const { status, body } = mapError(
				isBadJson ? new ValidationError('request body is not valid JSON') : err
			);
			res.status(status).json(body);
		}
	);
	return app;
}

function limitsFor(upstate: Upstate): RateLimits {
	return createRateLimits({
		config: upstate.config.rateLimit,
		trustedProxyHops: upstate.config.trustedProxyHops
	});
}

const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n');

// Port 3001 speaks HTTP/1.1 and cleartext HTTP/2 (h2c, prior knowledge, as gRPC clients do).
// Node's HTTP/2 server cannot fall back to HTTP/1.1 without TLS, so the first bytes of each
// connection pick the server. Over HTTP/2 only /rpc is served: Express needs HTTP/1.1 objects.
export function createApiListener(args: {
	upstate: Upstate;
	wrap?: (handler: http.RequestListener) => http.RequestListener;
}): net.Server {
	const limits = limitsFor(args.upstate);
	const rpc = createRpcHandler({ upstate: args.upstate, limits });
	const app: http.RequestListener = createApiServer({ upstate: args.upstate, limits, rpc });
	const h1 = http.createServer(args.wrap ? args.wrap(app) : app);
	const h2 = http2.createServer({}, (req, res) => {
		logRequests(req, res);
		if (rpc.handles(req.url)) return rpc.handle(req, res);
		res.writeHead(505, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				error: {
					code: 'NOT_FOUND',
					message: 'over HTTP/2 this port serves only /rpc: use HTTP/1.1 for REST, MCP and OpenAPI'
				}
			})
		);
	});
	return net.createServer((socket) => {
		let head = Buffer.alloc(0);
		const onData = (chunk: Buffer) => {
			head = Buffer.concat([head, chunk]);
			const n = Math.min(head.length, H2_PREFACE.length);
			const isH2 = head.subarray(0, n).equals(H2_PREFACE.subarray(0, n));
			if (isH2 && head.length < H2_PREFACE.length) return;
			socket.off('data', onData);
			socket.pause();
			socket.unshift(head);
			if (isH2) return h2.emit('connection', socket);
			h1.emit('connection', socket);
			socket.resume(); // the HTTP/1.1 parser reads the unshifted bytes as a 'data' event
		};
		socket.on('data', onData);
		socket.on('error', () => socket.destroy());
	});
}
