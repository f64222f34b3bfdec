// `npm run bench`: `upstate apply` of a 200-resource file (120 monitors, 2 pages, 4 groups, 60
// components, 10 channels, 4 maintenance windows) into an empty workspace, then again with
// nothing to change, then `upstate plan`. Each run is the real command in its own process
// against the API server over /rpc on a real database. Prints, does not assert.
import { execFile } from 'node:child_process';
import os from 'node:os';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { startCliStack } from '../cli/test/stack.ts';
import { tempDir } from '../cli/test/run.ts';

const run = promisify(execFile);
const log = console.log;
console.log = () => {}; // the services' own log lines

const stack = await startCliStack();
const { env, ws } = await stack.workspace({
	monitors: 500,
	'page-components': 100,
	'notification-channels': 20
});

const monitors = Object.fromEntries(
	Array.from({ length: 120 }, (_, i) => [
		`m${i}`,
		i % 2
			? {
					type: 'http',
					name: `API ${i}`,
					periodicity: '10m',
					url: `https://api${i}.example.com/health`,
					status_code_assertions: [{ comparator: 'eq', target: 200 }]
				}
			: { type: 'tcp', name: `DB ${i}`, periodicity: '10m', uri: `db${i}.example.com:5432` }
	])
);
const pages = {
	p0: { title: 'Bench A', slug: `bench-a-${ws.id}` },
	p1: { title: 'Bench B', slug: `bench-b-${ws.id}` }
};
const groups = Object.fromEntries(
	[0, 1, 2, 3].map((g) => [`g${g}`, { page: `p${g % 2}`, name: `Group ${g}` }])
);
const components = Object.fromEntries(
	Array.from({ length: 60 }, (_, i) => [
		`c${i}`,
		{ page: `p${i % 2}`, type: 'monitor', monitor: `m${i}`, group: `g${i % 4}`, order: i }
	])
);
const channels = Object.fromEntries(
	Array.from({ length: 10 }, (_, i) => [
		`n${i}`,
		{
			name: `Team ${i}`,
			provider_type: 'email',
			email: { email: `team${i}@example.com` },
			monitors: [`m${i * 2}`, `m${i * 2 + 1}`]
		}
	])
);
const maintenance = Object.fromEntries(
	[0, 1, 2, 3].map((i) => [
		`w${i}`,
		{
			page: `p${i % 2}`,
			title: `Window ${i}`,
			from: `2030-0${i + 1}-01T02:00:00Z`,
			to: `2030-0${i + 1}-01T03:00:00Z`,
			components: [`c${i}`],
			notify: false
		}
	])
);
const file = path.join(tempDir('upstate-bench-'), 'upstate.yaml');
writeFileSync(
	file,
	stringify({
		version: 1,
		monitors,
		status_pages: pages,
		component_groups: groups,
		components,
		notification_channels: channels,
		maintenance
	})
);

const bin = new URL('../cli/bin/upstate.js', import.meta.url).pathname;
async function timed(label: string, argv: string[]) {
	const started = performance.now();
	const { stdout } = await run(process.execPath, [bin, ...argv], {
		env: { ...process.env, ...env }
	});
	const ms = performance.now() - started;
	log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${stdout.trim().split('\n').at(-1)}`);
}

log('upstate apply, 200 resources over /rpc (each a fresh `upstate` process)');
await timed('apply from empty', ['apply', '-q', '-f', file]);
await timed('apply with nothing to change', ['apply', '-f', file]);
await timed('plan with nothing to change', ['plan', '-f', file]);
await timed('upstate --version (process start)', ['--version']);
log(
	`load average ${os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')} on ${os.cpus().length} cores`
);
await stack.close();
process.exit(0);
