import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
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
