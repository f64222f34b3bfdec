import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ServiceContext } from '../../domain/context.ts';
import { FREE_PLAN_LIMITS } from '../../domain/limits.ts';
import type { ProcedureInfo } from '../procedures.ts';
import { buildTools, visibleTools } from './tools.ts';

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

	it('leaves a tool out of tools/list when the workspace lacks its plan feature', () => {
		const tools = buildTools([
			proc('read', 'list_things'),
			proc('read', 'list_audited', { feature: 'audit-log' }),
			proc('write', 'create_thing')
		]);
		const ctx = (auditLog: boolean, scope: 'read' | 'write'): ServiceContext => ({
			db: undefined as never,
			workspace: { id: 1, plan: 'team', limits: { ...FREE_PLAN_LIMITS, 'audit-log': auditLog } },
			actor: { type: 'apiKey', keyId: 1, userId: null, scope, via: 'mcp' },
			requestId: 'r'
		});
		const names = (c: ServiceContext) => visibleTools(tools, c).map((t) => t.tool.name);
		expect(names(ctx(true, 'write'))).toEqual(['list_things', 'list_audited', 'create_thing']);
		expect(names(ctx(false, 'write'))).toEqual(['list_things', 'create_thing']);
		expect(names(ctx(true, 'read'))).toEqual(['list_things', 'list_audited']);
		expect(names(ctx(false, 'read'))).toEqual(['list_things']);
	});
});
