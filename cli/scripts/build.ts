import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

// `npm pack` bundles the CLI into one ES module: our code and what it imports from the other
// workspaces (the server's zod schemas, the /rpc messages, the probe's checks) go in; the
// packages listed as dependencies stay outside and are installed with it.
const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
	dependencies: Record<string, string>;
};

await build({
	entryPoints: [new URL('src/main.ts', root).pathname],
	outfile: new URL('dist/upstate.js', root).pathname,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node22',
	external: Object.keys(pkg.dependencies).flatMap((d) => [d, `${d}/*`]),
	legalComments: 'none',
	logLevel: 'warning'
});
