import express, { type Request } from 'express';
import type { Upstate } from '../../app.ts';
import type { RestMeta } from '../../router/trpc.ts';
import { callProcedure, listProcedures } from '../procedures.ts';
import { toServiceCtx } from './context.ts';
import { mapError } from './errors.ts';

// REST v1, generated: one route per procedure that has `meta.rest`.
export function createRestRouter(args: { upstate: Upstate }): express.Router {
	const router = express.Router();
	for (const proc of listProcedures()) {
		const rest = proc.meta.rest;
		if (!rest) continue;
		const route = rest.path.replace(/\{(\w+)\}/g, ':$1');
		const method = rest.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
		router[method](route, async (req, res) => {
			try {
				const ctx = await toServiceCtx(args.upstate, req);
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
