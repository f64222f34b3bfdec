import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The install command as a user runs it (the package's bin), with a temp HOME.
const providerDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = path.join(providerDir, 'bin/terraform-provider-upstate');
const { version } = JSON.parse(readFileSync(path.join(providerDir, 'package.json'), 'utf8')) as {
	version: string;
};
const home = mkdtempSync(path.join(os.tmpdir(), 'upstate-tfpkg-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const run = (args: string[]) =>
	new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
		execFile(bin, args, { env: { ...process.env, HOME: home } }, (err, stdout, stderr) =>
			resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
		)
	);
const files = (dir: string): string[] =>
	readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((f) => statSync(path.join(dir, f)).isFile())
		.sort();
const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string] ?? process.arch;

describe('terraform-provider-upstate install', () => {
	it('writes the wrapper into ~/.terraform.d/plugins under the package.json version; twice = same files', async () => {
		const first = await run(['install']);
		expect(first.code).toBe(0);
		const plugins = path.join(home, '.terraform.d/plugins');
		const rel = `example.com/upstate/upstate/${version}/${process.platform}_${arch}/terraform-provider-upstate_v${version}`;
		expect(files(plugins)).toEqual([rel]);
		const exe = path.join(plugins, rel);
		expect(statSync(exe).mode & 0o111).toBe(0o111);
		const text = readFileSync(exe, 'utf8');
		expect(text).toContain(`'${path.join(providerDir, 'src/main.ts')}'`);
		expect(text).toMatch(/^exec '\/[^']*node' /m); // an absolute node
		expect(first.stdout).toMatch(/^installed example\.com\/upstate\/upstate v/);
		expect(first.stdout).toContain('version = "~> 0.1"');

		const second = await run(['install']);
		expect(second.code).toBe(0);
		expect(second.stdout).toMatch(/^already installed/);
		expect(files(plugins)).toEqual([rel]);
		expect(readFileSync(exe, 'utf8')).toBe(text);
	});

	it('--dir writes elsewhere and prints the filesystem_mirror config it then needs', async () => {
		const dir = path.join(home, 'mirror');
		const r = await run(['install', '--dir', dir]);
		expect(r.code).toBe(0);
		expect(files(dir)).toHaveLength(1);
		expect(r.stdout).toContain(`path    = "${dir}"`);
		expect(r.stdout).toContain('include = ["example.com/upstate/upstate"]');
	});

	it('refuses an unknown argument with the usage', async () => {
		const r = await run(['install', '--dri', 'x']);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain('usage: terraform-provider-upstate install [--dir <mirror>]');
	});
});
