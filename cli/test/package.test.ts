import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
	dependencies: Record<string, string>;
	bin: Record<string, string>;
	files: string[];
};

// What `npm pack` ships must run on its own: the bundle may import only node's modules and the
// package's declared dependencies (the workspaces' code is inside it).
describe('the packed CLI', () => {
	it('bundles the workspaces and imports nothing it does not declare', async () => {
		const result = await build({
			entryPoints: [new URL('src/main.ts', root).pathname],
			bundle: true,
			platform: 'node',
			format: 'esm',
			target: 'node22',
			write: false,
			metafile: true,
			external: Object.keys(pkg.dependencies).flatMap((d) => [d, `${d}/*`]),
			logLevel: 'silent'
		});
		const imports = new Set(
			Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path))
		);
		const allowed = (p: string) =>
			builtinModules.includes(p.replace(/^node:/, '')) ||
			Object.keys(pkg.dependencies).some((d) => p === d || p.startsWith(`${d}/`));
		expect([...imports].filter((p) => !allowed(p))).toEqual([]);
		const inputs = Object.keys(result.metafile.inputs);
		for (const workspace of [
			'server/src/domain/monitor/schemas.ts',
			'proto/gen/upstate/v1/monitor_pb.ts',
			'probe/src/checks/http.ts'
		])
			expect(inputs.some((i) => i.endsWith(workspace))).toBe(true);
		// No database client or server runtime slips in with the schemas.
		expect(
			inputs.filter((i) => /prisma|libsql|express|server\/src\/(db|router|app)/.test(i))
		).toEqual([]);
	});

	it('ships its bin, bundle and schema', () => {
		expect(pkg.bin).toEqual({ upstate: './bin/upstate.js' });
		expect(pkg.files).toEqual(['bin', 'dist', 'schema']);
	});
});
