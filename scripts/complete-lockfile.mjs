// The npm registry mirror reachable here serves no versions of other platforms' optional
// binaries (@rollup/rollup-darwin-arm64, @libsql/win32-x64-msvc, ...), so `npm install` leaves
// them out of package-lock.json and `npm ci` then refuses the lock as out of sync. This adds
// each missing optional platform package with its os/cpu/libc read from its name, so `npm ci`
// skips it here and fetches it (from its registry address) on the platform that needs it.
// Run after every `npm install`: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const OS = [
	'android',
	'darwin',
	'freebsd',
	'linux',
	'win32',
	'openbsd',
	'netbsd',
	'sunos',
	'aix',
	'openharmony'
];
const CPU = {
	arm64: 'arm64',
	x64: 'x64',
	arm: 'arm',
	ia32: 'ia32',
	riscv64: 'riscv64',
	ppc64: 'ppc64',
	s390x: 's390x',
	loong64: 'loong64',
	wasm32: 'wasm32'
};

function resolves(from, name) {
	let base = from;
	for (;;) {
		if (pkgs[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
		if (!base) return false;
		const i = base.lastIndexOf('/node_modules/');
		base = i >= 0 ? base.slice(0, i) : '';
	}
}

function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	const os = parts.find((p) => OS.includes(p));
	const cpu = parts.map((p) => CPU[p] ?? (p === 'eabi' ? undefined : undefined)).find(Boolean);
	const entry = {};
	if (os) entry.os = [os === 'openharmony' ? 'openharmony' : os];
	if (cpu) entry.cpu = [cpu];
	if (parts.some((p) => p.startsWith('musl'))) entry.libc = ['musl'];
	else if (os === 'linux' && parts.some((p) => p.startsWith('gnu'))) entry.libc = ['glibc'];
	return entry;
}

let added = 0;
for (const [path, entry] of Object.entries({ ...pkgs })) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		if (resolves(path, name)) continue;
		const platform = platformOf(name);
		if (!platform.os && !platform.cpu) {
			console.warn(`skipped ${name}@${version}: no platform in its name`);
			continue;
		}
		const top = `node_modules/${name}`;
		const at = pkgs[top] ? `${path}/node_modules/${name}` : top;
		pkgs[at] = {
			version,
			resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`,
			...(entry.dev ? { dev: true } : {}),
			optional: true,
			...platform
		};
		added++;
	}
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform packages`);
