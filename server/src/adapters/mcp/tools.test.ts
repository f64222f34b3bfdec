import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProcedureInfo } from '../procedures.ts';
import { buildTools } from './tools.ts';

const proc = (
	scope: 'read' | 'write',
	name: string,
	extra: Partial<ProcedureInfo['meta']['mcp']> = {}
): ProcedureInfo => ({
	path: `x.${name}`,
	type: scope === 'read' ? 'query' : 'mutation',
	meta: { scope, mcp: { name, description: name, ...extra } },
	input: z.object({ id: z.number() }),
	output: undefined
});

describe('MCP tool registry', () => {
	it('derives readOnlyHint from the procedure scope', () => {
		const [read, write] = buildTools([
			proc('read', 'get_thing'),
			proc('write', 'create_thing', { destructiveHint: true })
		]);
		expect(read.tool.annotations).toEqual({
			readOnlyHint: true,
			destructiveHint: false,
			idempotentHint: true
		});
		expect(write.tool.annotations).toEqual({
			readOnlyHint: false,
			destructiveHint: true,
			idempotentHint: false
		});
		expect(read.tool.inputSchema).toMatchObject({ type: 'object', required: ['id'] });
	});

	it('fails the boot when a tool name contradicts its scope', () => {
		expect(() => buildTools([proc('write', 'list_things')])).toThrow(
			/write-scoped but named like a read tool/
		);
		expect(() => buildTools([proc('read', 'create_thing')])).toThrow(
			/read-scoped but not named list_\/get_/
		);
	});

	it('registers the real router without contradictions', () => {
		expect(buildTools().map((t) => t.tool.name)).toEqual(
			expect.arrayContaining([
				'list_monitors',
				'get_monitor',
				'list_status_pages',
				'list_page_components'
			])
		);
	});
});
