import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import type { Upstate } from '../../app.ts';
import type { RestMeta } from '../../router/trpc.ts';
import { callProcedure, listProcedures } from '../procedures.ts';
import { admit, originOf, limitMessage, type RateLimits, type RateVerdict } from '../rate-limit.ts';
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
		const coerce = coercerFor(proc.input);
		router[method](route, async (req, res) => {
			try {
				const auth = await admit({
					limits: args.limits,
					origin: originOf(req),
					resolve: () => toServiceCtx(args.upstate, req),
					cost: 1
				});
				if (!auth.ok) {
					if ('limited' in auth) return tooManyRequests(res, auth.limited);
					throw auth.unauthorized;
				}
				const { ctx } = auth;
				res.set(auth.headers);
				const result = await callProcedure(ctx, proc.path, restInput(rest, coerce, req));
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

// Path params and query strings arrive as text; a value is read back as a number or boolean only
// where the procedure's input schema expects one (and no string), so the schema validates it.
type Scalar = 'number' | 'boolean' | 'string';
type JsonNode = {
	type?: string | string[];
	anyOf?: JsonNode[];
	oneOf?: JsonNode[];
	properties?: Record<string, JsonNode>;
};

function scalarTypes(node: JsonNode | undefined, out = new Set<Scalar>()): Set<Scalar> {
	if (!node) return out;
	for (const t of [node.type ?? []].flat())
		if (t === 'integer' || t === 'number') out.add('number');
		else if (t === 'boolean' || t === 'string') out.add(t);
	for (const n of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) scalarTypes(n, out);
	return out;
}

function propertiesOf(node: JsonNode): Record<string, JsonNode> {
	const alternatives = [...(node.anyOf ?? []), ...(node.oneOf ?? [])];
	return Object.assign({}, ...alternatives.map(propertiesOf), node.properties);
}

export type Coercer = (key: string, value: unknown) => unknown;

export function coercerFor(input: z.ZodType | undefined): Coercer {
	const schema = input
		? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonNode)
		: {};
	const props = propertiesOf(schema);
	return (key, value) => {
		if (typeof value !== 'string') return value;
		const types = scalarTypes(props[key]);
		if (types.has('string')) return value;
		if (types.has('number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
		if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
		return value;
	};
}

function restInput(rest: RestMeta, coerce: Coercer, req: Request): Record<string, unknown> {
	const params = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, coerce(k, v)]));
	if (rest.method === 'GET' || rest.method === 'DELETE') {
		const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, coerce(k, v)]));
		return { ...query, ...params };
	}
	const body: unknown = req.body ?? {};
	return { ...(typeof body === 'object' && !Array.isArray(body) ? body : {}), ...params };
}
