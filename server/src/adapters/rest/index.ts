import express, { type Request, type Response } from 'express';
import type { Upstate } from '../../app.ts';
import type { RestMeta } from '../../router/trpc.ts';
import { callProcedure, listProcedures } from '../procedures.ts';
import { authenticate, originOf, limitMessage, type RateLimits, type RateVerdict } from '../rate-limit.ts';
import { toServiceCtx } from './context.ts';
import { mapError } from './errors.ts';

// REST v1, generated: one route per procedure that has `meta.rest`.
// Every request costs one against its credential's rate limit (shared with MCP).
export function createRestRouter(args: { upstate: Upstate; limits: RateLimits }): express.Router {
	const router = express.Router();
	for (const proc of listProcedures()) {
		const rest = proc.meta.rest;
		if (!rest) continue;
		const route = rest.path.replace(/\{(\w+)\}/g, ':$1');
		const method = rest.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
		router[method](route, async (req, res) => {
			try {
				const auth = await authenticate({
					limits: args.limits,
					origin: originOf(req),
					resolve: () => toServiceCtx(args.upstate, req)
				});
				if (!auth.ok) {
					if ('limited' in auth) return tooManyRequests(res, auth.limited);
					throw auth.unauthorized;
				}
				const { ctx } = auth;
				const verdict = await args.limits.chargeCredential(ctx.service?.actor, 1);
				res.set(verdict.headers);
				if (!verdict.allowed) return tooManyRequests(res, verdict);
				const result = await callProcedure(ctx, proc.path, restInput(rest, req));
				res.status(rest.successStatus ?? 200).json(result);
			} catch (err) {
				const { status, body } = mapError(err);
				res.status(status).json(body);
			}
		});
	}
	return router;
}

function tooManyRequests(res: Response, verdict: RateVerdict): void {
	res
		.status(429)
		.set(verdict.headers)
		.json({ error: { code: 'LIMIT_EXCEEDED', message: limitMessage(verdict) } });
}

// Path params and query strings arrive as text; numbers and booleans are read back as such so
// the procedure's own schema does the validation.
function coerce(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (/^-?\d+$/.test(value) && value.length < 16) return Number(value);
	if (value === 'true' || value === 'false') return value === 'true';
	return value;
}

function restInput(rest: RestMeta, req: Request): Record<string, unknown> {
	const params = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, coerce(v)]));
	if (rest.method === 'GET' || rest.method === 'DELETE') {
		const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, coerce(v)]));
		return { ...query, ...params };
	}
	const body: unknown = req.body ?? {};
	return { ...(typeof body === 'object' && !Array.isArray(body) ? body : {}), ...params };
}
