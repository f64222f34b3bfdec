import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { actorScope, type ServiceContext } from '../../domain/context.ts';
import { listProcedures, type ProcedureInfo } from '../procedures.ts';

export type McpTool = { tool: Tool; procedure: ProcedureInfo };

const READ_NAME = /^(list|get)_/;
const WRITE_NAME = /^(create|update|add|resolve|delete|remove)_/;

// Tools come from procedure meta; readOnlyHint is derived from the procedure's scope, and a
// name that contradicts the scope fails the boot rather than ship (STYLE 12).
export function buildTools(procedures: ProcedureInfo[] = listProcedures()): McpTool[] {
	return procedures
		.filter((p) => p.meta.mcp)
		.map((procedure) => {
			const mcp = procedure.meta.mcp as NonNullable<ProcedureInfo['meta']['mcp']>;
			const readOnly = procedure.meta.scope === 'read';
			if (readOnly && !READ_NAME.test(mcp.name))
				throw new Error(`MCP tool ${mcp.name} is read-scoped but not named list_/get_`);
			if (!readOnly && !WRITE_NAME.test(mcp.name))
				throw new Error(`MCP tool ${mcp.name} is write-scoped but named like a read tool`);
			const { $schema: _s, ...inputSchema } = procedure.input
				? (z.toJSONSchema(procedure.input, { io: 'input', unrepresentable: 'any' }) as Record<
						string,
						unknown
					>)
				: { type: 'object', properties: {} };
			const tool: Tool = {
				name: mcp.name,
				description: mcp.description,
				inputSchema: { ...inputSchema, type: 'object' },
				annotations: {
					readOnlyHint: readOnly,
					destructiveHint: readOnly ? false : (mcp.destructiveHint ?? false),
					idempotentHint: readOnly ? true : (mcp.idempotentHint ?? false)
				}
			};
			return { tool, procedure };
		});
}

// What tools/list shows: read-only credentials see only list_/get_ tools (spec 5.2), and a tool
// whose plan key (`mcp.feature`) the workspace lacks is left out (spec 4.1). The verbs check both
// again on every call: this filter is what the model sees, not the boundary.
export function visibleTools(tools: McpTool[], service: ServiceContext | null): McpTool[] {
	const scope = service ? actorScope(service.actor) : 'read';
	return tools.filter((t) => {
		const feature = t.procedure.meta.mcp?.feature;
		if (feature && !service?.workspace.limits[feature]) return false;
		return scope === 'write' || t.tool.annotations?.readOnlyHint === true;
	});
}
