import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `terraform-provider-upstate install [--dir <mirror>]`: lays this package out as a Terraform
// filesystem mirror for this machine, so `terraform init` finds it with no registry. The
// default mirror, ~/.terraform.d/plugins, is Terraform's implied local mirror on Linux and
// macOS: no CLI configuration is needed.
export const SOURCE = 'example.com/upstate/upstate';
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The provider's version: package.json is its one definition. */
export const VERSION = (
	JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }
).version;

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

/** Terraform's `<os>_<arch>` for this machine. */
export function platform(): string {
	if (
		process.platform !== 'linux' &&
		process.platform !== 'darwin' &&
		process.platform !== 'freebsd'
	)
		throw new Error(
			`install supports Linux, macOS and FreeBSD (a shell-script wrapper); on ${process.platform} use dev_overrides (see the README)`
		);
	const arch = ARCH[process.arch];
	if (!arch) throw new Error(`no Terraform platform name for architecture ${process.arch}`);
	return `${process.platform}_${arch}`;
}

const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export type Installed = { file: string; changed: boolean; mirror: string };

/** Writes (or confirms) the wrapper; running it twice leaves the same file. */
export function install(opts: { dir?: string; node?: string } = {}): Installed {
	const mirror = path.resolve(opts.dir ?? path.join(os.homedir(), '.terraform.d', 'plugins'));
	const target = path.join(mirror, SOURCE, VERSION, platform());
	const file = path.join(target, `terraform-provider-upstate_v${VERSION}`);
	const node = opts.node ?? process.execPath;
	const main = path.join(pkgDir, 'src', 'main.ts');
	const text = `#!/bin/sh\n# Written by \`terraform-provider-upstate install\`: runs the provider from ${pkgDir}.\nexec ${sh(node)} ${sh(main)} "$@"\n`;
	let before: string | null = null;
	try {
		before = readFileSync(file, 'utf8');
	} catch {
		// not installed yet
	}
	mkdirSync(target, { recursive: true });
	if (before !== text) writeFileSync(file, text);
	chmodSync(file, 0o755);
	return { file, changed: before !== text, mirror };
}

export function usage(mirror: string, implied: boolean): string {
	const major = VERSION.split('.').slice(0, 2).join('.');
	const config = implied
		? ''
		: `\nThis is not Terraform's implied mirror: add to ~/.terraformrc (or TF_CLI_CONFIG_FILE):\n` +
			`provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["${SOURCE}"]\n  }\n  direct {\n    exclude = ["${SOURCE}"]\n  }\n}\n`;
	return (
		`${config}\nIn your configuration:\n` +
		`terraform {\n  required_providers {\n    upstate = { source = "${SOURCE}", version = "~> ${major}" }\n  }\n}\n` +
		`then run \`terraform init\`.\n`
	);
}

function cli(argv: string[]): number {
	let dir: string | undefined;
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--dir' && argv[i + 1]) dir = argv[++i];
		else if (a.startsWith('--dir=')) dir = a.slice('--dir='.length);
		else if (a === '-h' || a === '--help') {
			process.stdout.write(
				'usage: terraform-provider-upstate install [--dir <mirror>]\n  default mirror: ~/.terraform.d/plugins (Terraform finds it with no configuration)\n'
			);
			return 0;
		} else {
			process.stderr.write(
				`unknown argument ${a}: usage: terraform-provider-upstate install [--dir <mirror>]\n`
			);
			return 2;
		}
	}
	const implied = path.resolve(path.join(os.homedir(), '.terraform.d', 'plugins'));
	const r = install({ dir });
	process.stdout.write(
		`${r.changed ? 'installed' : 'already installed'} ${SOURCE} v${VERSION} (${platform()}): ${r.file}\n` +
			usage(r.mirror, r.mirror === implied)
	);
	return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		process.exitCode = cli(process.argv.slice(2));
	} catch (err) {
		process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
		process.exitCode = 1;
	}
}
