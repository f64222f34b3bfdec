import type { z } from 'zod';
import { appRouter, createCaller } from '../router/root.ts';
import type { Meta, TrpcContext } from '../router/trpc.ts';

// The router as data: what the generated adapters (REST, OpenAPI, MCP) walk.
export type ProcedureInfo = {
	path: string; // tRPC path, e.g. `monitor.get`
	type: 'query' | 'mutation';
	meta: Meta;
	input: z.ZodType | undefined;
	output: z.ZodType | undefined;
};

type RawProcedure = {
	_def: { type: 'query' | 'mutation'; meta?: Meta; inputs: z.ZodType[]; output?: z.ZodType };
};

export function listProcedures(): ProcedureInfo[] {
	// safe because tRPC keeps every procedure of the merged router in this flat record
	const record = appRouter._def.procedures as unknown as Record<string, RawProcedure>;
	return Object.entries(record).map(([path, proc]) => ({
		path,
		type: proc._def.type,
		meta: proc._def.meta ?? {},
		input: proc._def.inputs[0],
		output: proc._def.output
	}));
}

type CallerFn = (input: unknown) => Promise<unknown>;

export function callProcedure(ctx: TrpcContext, path: string, input: unknown): Promise<unknown> {
	let target: unknown = createCaller(ctx);
	for (const key of path.split('.')) target = (target as Record<string, unknown>)[key];
	// safe because `path` comes from listProcedures(), so it names a callable procedure
	return (target as CallerFn)(input);
}
