import express from 'express';
import type { Upstate } from './app.ts';
import { createMcpHandler, mcpErrorHandler } from './adapters/mcp/index.ts';
import { llmsTxt, mcpReferenceMarkdown } from './adapters/mcp/reference.ts';
import { buildTools } from './adapters/mcp/tools.ts';
import { createRateLimits } from './adapters/rate-limit.ts';
import { createRestRouter } from './adapters/rest/index.ts';
import { mapError } from './adapters/rest/errors.ts';
import { createOpenApiDocument } from './adapters/rest/openapi.ts';
import { createPipesRouter } from './analytics/pipes.ts';
import { ValidationError } from './domain/errors.ts';
import { createOAuthRouter } from './oauth/index.ts';

// The API server (port 3001): REST v1, /openapi.json, /mcp and its OAuth server (/oauth, /.well-known).
export function createApiServer(args: { upstate: Upstate }): express.Express {
	const app = express();
	app.disable('x-powered-by');
	app.use((req, res, next) => {
		const started = performance.now();
		res.on('finish', () => {
			console.log(
				`[api] ${req.method} ${req.path} status=${res.statusCode} ms=${Math.round(performance.now() - started)}`
			);
		});
		next();
	});
	app.use(createOAuthRouter(args));
	const limits = createRateLimits({
		config: args.upstate.config.rateLimit,
		trustedProxyHops: args.upstate.config.trustedProxyHops
	});
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
