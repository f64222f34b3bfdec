// `npm run bench`, Terraform: `terraform apply` of 100 `upstate_monitor` resources into an empty
// workspace, then `terraform plan` with nothing to change. The provider is installed with its
// own `install` command into a temp HOME (Terraform's implied mirror) and launched by Terraform
// as a user gets it; the API server runs in its own process on a real database. Prints, does
// not assert (apart from the plan finding nothing to change).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDb } from '../server/test/db.ts';
import { createWorkspace, TEAM_LIMITS } from '../server/test/factories.ts';
import { issueKey } from '../server/test/upstate.ts';
import { spawnApiChild } from './api-child.ts';

const MONITORS = 100;

try {
	execFileSync('terraform', ['version'], { stdio: 'ignore' });
} catch {
	console.log('terraform: skipped, `terraform` is not on PATH (install Terraform 1.11.x)');
	process.exit(0);
}
const { db, url } = await createTestDb();
const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, monitors: MONITORS } });
const key = await issueKey(db, ws, 'write');
await db.$disconnect();

const { base, child } = await spawnApiChild(url);

const home = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-tf-'));
const dir = path.join(home, 'work');
mkdirSync(dir);
writeFileSync(
	path.join(dir, 'main.tf'),
	`terraform {
  required_providers {
    upstate = { source = "example.com/upstate/upstate", version = "~> 0.1" }
  }
}
provider "upstate" {
  api_token = "${key}"
  base_url  = "${base}"
}
resource "upstate_monitor" "m" {
  count       = ${MONITORS}
  type        = count.index % 2 == 0 ? "http" : "tcp"
  name        = "bench \${count.index}"
  periodicity = "10m"
  url         = count.index % 2 == 0 ? "https://m\${count.index}.example.com/health" : null
  uri         = count.index % 2 == 0 ? null : "db\${count.index}.example.com:5432"
}
`
);
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CHECKPOINT_DISABLE: '1' };
delete env.TF_CLI_CONFIG_FILE;
const run = (file: string, args: string[]) =>
	new Promise<{ code: number; ms: number; out: string }>((resolve) => {
		const started = performance.now();
		execFile(file, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
			resolve({
				code: err ? ((err as { code?: number }).code ?? 1) : 0,
				ms: performance.now() - started,
				out: stdout + stderr
			})
		);
	});
const timed = async (label: string, args: string[], expectCode = 0) => {
	const r = await run('terraform', [...args, '-input=false', '-no-color']);
	if (r.code !== expectCode)
		throw new Error(`terraform ${args.join(' ')} → ${r.code}\n${r.out.slice(-4000)}`);
	const last = r.out
		.trim()
		.split('\n')
		.filter((l) => /Apply complete|No changes|Plan:/.test(l));
	console.log(
		`${label.padEnd(34)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${last.at(-1) ?? ''}`
	);
};

// The server child and the temp HOME go whatever happens.
try {
	const bin = new URL('../terraform-provider/bin/terraform-provider-upstate', import.meta.url)
		.pathname;
	const installed = await run(bin, ['install']);
	if (installed.code !== 0) throw new Error(`install failed:\n${installed.out}`);
	console.log(
		`terraform, ${MONITORS} upstate_monitor resources (Terraform launches the provider; parallelism 10)`
	);
	await timed('init (implied local mirror)', ['init']);
	await timed('apply from empty', ['apply', '-auto-approve']);
	await timed('plan with nothing to change', ['plan', '-detailed-exitcode']);
	console.log(
		`load average ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')} on ${os.cpus().length} cores`
	);
} finally {
	child.kill();
	rmSync(home, { recursive: true, force: true });
}
