import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer fences of eslint.config.js, crossed on purpose: each case lints a made-up file at a
// path inside the tree (nothing is written) and expects the fence's rule, or none.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

async function rulesFor(file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
	return result.messages.map((m) => m.ruleId ?? m.message);
}

const IMPORTS = '@typescript-eslint/no-restricted-imports';

describe('lint fences', () => {
	it.each([
		['server/src/router/fence.ts', "import { PrismaClient } from '@prisma/client';"],
		['server/src/adapters/rest/fence.ts', "import { createDb } from '../../db/client.ts';"],
		['server/src/workflows/fence.ts', "import { createDb } from '../db/client.ts';"],
		['web/src/lib/server/fence.ts', "import { Prisma } from '@prisma/client';"],
		['server/src/domain/monitor/fence.ts', "import { appRouter } from '../../router/root.ts';"],
		[
			'server/src/domain/monitor/fence.ts',
			"import { mapError } from '../../adapters/rest/errors.ts';"
		],
		['server/src/domain/monitor/fence.ts', "import { JOBS } from '../../workflows/jobs.ts';"],
		['server/src/domain/fence.ts', "import { startApi } from '../api.ts';"],
		[
			'server/src/domain/status-page/public/fence.ts',
			"import { x } from '../../../oauth/index.ts';"
		],
		['server/src/domain/monitor/fence.ts', "import express from 'express';"],
		['server/src/domain/monitor/fence.ts', "import { TRPCError } from '@trpc/server';"],
		['web/src/routes/fence/+page.ts', "import { createUpstate } from '@upstate/server';"],
		[
			'web/src/lib/components/Fence.svelte',
			'<script lang="ts">\n\timport { createUpstate } from \'@upstate/server\';\n</script>\n'
		],
		['status/src/lib/fence.ts', "import type { Upstate } from '@upstate/server';"],
		['probe/src/fence.ts', "import { createUpstate } from '@upstate/server';"],
		['probe/src/checks/fence.ts', "import { x } from '../../../server/src/ingest/wire.ts';"],
		['cli/src/fence.ts', "import { createUpstate } from '@upstate/server';"]
	])('%s: %s is refused', async (file, code) => {
		expect(await rulesFor(file, code)).toContain(IMPORTS);
	});

	it.each([
		['server/src/domain/monitor/fence.ts', "import { createDb } from '../../db/client.ts';"],
		[
			'server/src/domain/member/fence.ts',
			"import { revokeMemberGrants } from '../oauth/index.ts';"
		],
		['server/src/router/fence.ts', "import type { Db } from '../db/client.ts';"],
		['web/src/routes/fence/+page.server.ts', "import { createUpstate } from '@upstate/server';"],
		['status/src/hooks.server.ts', "import { createUpstate } from '@upstate/server';"],
		['web/src/lib/server/fence.ts', "import { createUpstate } from '@upstate/server';"],
		['cli/src/fence.ts', "import { MonitorInput } from '@upstate/server/schemas';"],
		['cli/src/fence.ts', "import type { AppRouter } from '@upstate/server';"]
	])('%s: %s is allowed', async (file, code) => {
		expect(await rulesFor(file, `${code}\nexport {};\n`)).not.toContain(IMPORTS);
	});

	it('refuses Prisma queries outside the domain, even through a client handed in', async () => {
		for (const code of [
			'export const f = (upstate) => upstate.db.monitor.findMany({});',
			'export const f = (db) => db.membership.findUnique({});',
			'export const f = (ctx) => ctx.db.$transaction(async () => {});'
		]) {
			expect(await rulesFor('server/src/auth/fence.ts', code)).toContain('no-restricted-syntax');
			expect(await rulesFor('server/src/domain/monitor/fence.ts', code)).toEqual([]);
		}
	});

	it('reads process.env only in config.ts', async () => {
		const code = 'export const port = process.env.PORT;\n';
		expect(await rulesFor('server/src/notify/fence.ts', code)).toContain(
			'no-restricted-properties'
		);
		expect(await rulesFor('probe/src/fence.ts', code)).toContain('no-restricted-properties');
		expect(await rulesFor('server/src/config.ts', code)).toEqual([]);
	});

	it('refuses a disable comment that disables nothing', async () => {
		const code =
			'// eslint-disable-next-line no-control-regex -- nothing here\nexport const a = 1;\n';
		const [result] = await eslint.lintText(code, {
			filePath: path.join(root, 'server/src/fence.ts')
		});
		expect(result.messages.map((m) => m.message).join('\n')).toMatch(
			/Unused eslint-disable directive/
		);
		expect(result.errorCount).toBeGreaterThan(0);
	});
});
