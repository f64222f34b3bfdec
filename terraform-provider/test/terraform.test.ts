import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTransport } from '../../cli/src/transport.ts';
import { VERSION } from '../src/install.ts';
import { startCliStack } from '../../cli/test/stack.ts';

// The real Terraform against the real API server (libSQL file, 127.0.0.1): the provider is
// launched by Terraform itself (filesystem_mirror + init, dev_overrides) and, for the bulk of
// the journey, attached with TF_REATTACH_PROVIDERS to one long-running provider process.
const SOURCE = 'example.com/upstate/upstate';
const here = path.dirname(new URL(import.meta.url).pathname);
const providerDir = path.resolve(here, '..');
const node = process.execPath;

try {
	execFileSync('terraform', ['version'], { stdio: 'ignore' });
} catch {
	throw new Error(
		'terraform is not on PATH: install Terraform 1.11.x (https://developer.hashicorp.com/terraform/install) to run the provider tests'
	);
}

type Stack = Awaited<ReturnType<typeof startCliStack>>;
type Ws = Awaited<ReturnType<Stack['workspace']>>;
let stack: Stack;
let me: Ws;
let other: Ws;
let tmp: string;
let debugProvider: ChildProcess;
let reattach: string;

const rpc = (key: string) => {
	const t = connectTransport({ baseUrl: stack.api.url, apiKey: key });
	return (p: string, input: unknown) => t(p, input) as Promise<Record<string, unknown>>;
};

function tf(dir: string, args: string[], env: Record<string, string | undefined> = {}) {
	return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
		execFile(
			'terraform',
			[...args, '-no-color'],
			{
				cwd: dir,
				// an `undefined` value unsets the variable
				env: JSON.parse(
					JSON.stringify({
						...process.env,
						CHECKPOINT_DISABLE: '1',
						TF_IN_AUTOMATION: '1',
						TF_CLI_CONFIG_FILE: path.join(tmp, 'dev.tfrc'),
						TF_VAR_base_url: stack.api.url,
						TF_VAR_token: me.write,
						...env
					})
				) as NodeJS.ProcessEnv,
				maxBuffer: 16 * 1024 * 1024
			},
			(err, stdout, stderr) =>
				resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
		);
	});
}
const ok = async (dir: string, args: string[], env: Record<string, string | undefined> = {}) => {
	const r = await tf(dir, args, env);
	if (r.code !== 0)
		throw new Error(`terraform ${args.join(' ')} → ${r.code}\n${r.stdout}\n${r.stderr}`);
	return r;
};
const attached = () => ({ TF_REATTACH_PROVIDERS: reattach });

const HEAD = `
terraform {
  required_providers {
    upstate = { source = "${SOURCE}" }
  }
}
variable "token" { type = string }
variable "base_url" { type = string }
provider "upstate" {
  api_token = var.token
  base_url  = var.base_url
}
`;
const workdir = (name: string, tfText: string) => {
	const dir = path.join(tmp, name);
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'main.tf'), HEAD + tfText);
	return dir;
};
const state = (dir: string) => {
	try {
		return JSON.parse(readFileSync(path.join(dir, 'terraform.tfstate'), 'utf8')) as {
			resources: {
				type: string;
				name: string;
				instances: { attributes: Record<string, unknown>; sensitive_attributes?: unknown[] }[];
			}[];
			outputs: Record<string, { value: unknown }>;
		};
	} catch {
		return null;
	}
};
const attrs = (dir: string, name: string) =>
	state(dir)?.resources.find((r) => r.name === name)?.instances[0].attributes;

beforeAll(async () => {
	stack = await startCliStack();
	me = await stack.workspace();
	other = await stack.workspace();
	tmp = mkdtempSync(path.join(os.tmpdir(), 'upstate-tf-'));
	writeFileSync(
		path.join(tmp, 'dev.tfrc'),
		`provider_installation {\n  dev_overrides { "${SOURCE}" = "${path.join(providerDir, 'bin')}" }\n  direct {}\n}\n`
	);
	debugProvider = spawn(node, [path.join(providerDir, 'src/main.ts'), '--debug'], {
		stdio: ['ignore', 'pipe', 'inherit']
	});
	reattach = await new Promise<string>((resolve, reject) => {
		let out = '';
		debugProvider.stdout!.on('data', (c: Buffer) => {
			out += c;
			const m = /^TF_REATTACH_PROVIDERS=(.+)$/m.exec(out);
			if (m) resolve(m[1]);
		});
		debugProvider.on('exit', (code) => reject(new Error(`provider exited with ${code}`)));
	});
}, 60_000);

afterAll(async () => {
	debugProvider?.kill();
	await stack?.close();
	if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const MONITOR = `
variable "name" {
  type    = string
  default = "web"
}
variable "headers" {
  type    = list(object({ key = string, value = string }))
  default = [{ key = "x-check", value = "1" }]
}
resource "upstate_monitor" "web" {
  type        = "http"
  name        = var.name
  periodicity = "1m"
  url         = "https://example.com/health"
  headers     = var.headers
  status_code_assertions = [{ target = 200, comparator = "eq" }]
  tags        = ["prod"]
}
data "upstate_monitors" "all" {
  depends_on = [upstate_monitor.web]
}
data "upstate_private_locations" "all" {}
output "monitor_names" { value = [for m in data.upstate_monitors.all.monitors : m.name] }
output "locations" { value = data.upstate_private_locations.all.private_locations }
`;

describe('terraform-provider-upstate with the real terraform', () => {
	it('`terraform-provider-upstate install` puts it in the implied local mirror: init under "~> 0.1" with no CLI config, then plan/apply as Terraform launches it', async () => {
		// A temp HOME: install writes ~/.terraform.d/plugins, which Terraform searches on its
		// own (no TF_CLI_CONFIG_FILE, no ~/.terraformrc).
		const home = path.join(tmp, 'home');
		mkdirSync(home);
		const installed = execFileSync(
			path.join(providerDir, 'bin/terraform-provider-upstate'),
			['install'],
			{
				env: { ...process.env, HOME: home },
				encoding: 'utf8'
			}
		);
		expect(installed).toContain(
			path.join(
				home,
				'.terraform.d/plugins',
				SOURCE,
				VERSION,
				`linux_${process.arch === 'x64' ? 'amd64' : process.arch}`
			)
		);
		expect(installed).toContain(`upstate = { source = "${SOURCE}", version = "~> 0.1" }`);
		expect(installed).not.toContain('provider_installation');
		const cfg = (constraint: string) =>
			HEAD.replace(
				`source = "${SOURCE}"`,
				`source = "${SOURCE}"\n      version = "${constraint}"`
			) +
			`resource "upstate_monitor" "ping" {\n  type = "icmp"\n  name = "mirror-ping"\n  periodicity = "5m"\n  uri = "127.0.0.1"\n}\n`;
		const env = { HOME: home, TF_CLI_CONFIG_FILE: undefined };

		const wrong = workdir('mirror-wrong', '');
		writeFileSync(path.join(wrong, 'main.tf'), cfg('~> 0.2'));
		const refused = await tf(wrong, ['init', '-input=false'], env);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/no available releases match/i);

		const dir = workdir('mirror', '');
		writeFileSync(path.join(dir, 'main.tf'), cfg('~> 0.1'));
		const init = await ok(dir, ['init', '-input=false'], env);
		expect(init.stdout).toMatch(/Installed example.com\/upstate\/upstate v0\.1\.0/);
		expect(readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8')).toContain('"~> 0.1"');

		await ok(dir, ['apply', '-auto-approve', '-input=false'], env);
		const id = Number(attrs(dir, 'ping')?.id);
		const m = await rpc(me.write)('monitor.get', { monitorId: id });
		expect(m).toMatchObject({
			type: 'icmp',
			name: 'mirror-ping',
			uri: '127.0.0.1',
			timeout: 45000
		});
		expect((await tf(dir, ['plan', '-detailed-exitcode', '-input=false'], env)).code).toBe(0);
		await ok(dir, ['destroy', '-auto-approve', '-input=false'], env);
		await expect(rpc(me.write)('monitor.get', { monitorId: id })).rejects.toThrow();
	}, 90_000);

	it('journey: create, no-op, update, drift, recreate, import, data sources, destroy', async () => {
		const call = rpc(me.write);
		const loc = await call('privateLocation.create', {
			name: 'rack-1',
			monitor_ids: [],
			metadata: {}
		});
		const dir = workdir('journey', MONITOR);

		await ok(dir, ['apply', '-auto-approve', '-input=false'], attached());
		const id = Number(attrs(dir, 'web')?.id);
		expect(await call('monitor.get', { monitorId: id })).toMatchObject({
			name: 'web',
			url: 'https://example.com/health',
			method: 'GET',
			headers: [{ key: 'x-check', value: '1' }],
			status_code_assertions: [{ target: 200, comparator: 'eq' }],
			tags: ['prod']
		});
		const s = state(dir)!;
		expect(s.outputs.monitor_names.value).toEqual(['web']);
		expect(s.outputs.locations.value).toEqual([
			expect.objectContaining({
				id: String(loc.id),
				name: 'rack-1',
				status: 'unknown',
				last_seen_at: null
			})
		]);

		expect((await tf(dir, ['plan', '-detailed-exitcode', '-input=false'], attached())).code).toBe(
			0
		);

		await ok(dir, ['apply', '-auto-approve', '-input=false'], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		expect(Number(attrs(dir, 'web')?.id)).toBe(id);
		expect(await call('monitor.get', { monitorId: id })).toMatchObject({ name: 'web-2', retry: 3 });

		// Someone changes it over /rpc: the plan shows it and apply puts it back.
		await call('monitor.update', { monitorId: id, retry: 7, headers: [] });
		const drift = await tf(dir, ['plan', '-detailed-exitcode', '-input=false'], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		expect(drift.code).toBe(2);
		expect(drift.stdout).toMatch(/retry\s+= 7 -> 3/);
		expect(drift.stdout).toContain('x-check');
		await ok(dir, ['apply', '-auto-approve', '-input=false'], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		expect(await call('monitor.get', { monitorId: id })).toMatchObject({
			retry: 3,
			headers: [{ key: 'x-check', value: '1' }]
		});

		// A list removed from configuration is cleared on the server, and then plans no change.
		const noHeaders = { ...attached(), TF_VAR_name: 'web-2', TF_VAR_headers: 'null' };
		await ok(dir, ['apply', '-auto-approve', '-input=false'], noHeaders);
		expect(await call('monitor.get', { monitorId: id })).toMatchObject({ headers: [] });
		expect(attrs(dir, 'web')?.headers).toBeNull();
		expect((await tf(dir, ['plan', '-detailed-exitcode', '-input=false'], noHeaders)).code).toBe(0);

		// Deleted outside Terraform: it leaves the state on refresh and the plan recreates it.
		await call('monitor.remove', { monitorId: id });
		const gone = await tf(dir, ['plan', '-detailed-exitcode', '-input=false'], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		expect(gone.code).toBe(2);
		expect(gone.stdout).toMatch(/upstate_monitor\.web will be created/);

		// Import of a monitor made elsewhere; its configuration then plans no change.
		const made = await call('monitor.create', {
			type: 'tcp',
			name: 'made-outside',
			periodicity: '5m',
			uri: '127.0.0.1:9'
		});
		writeFileSync(
			path.join(dir, 'imported.tf'),
			`resource "upstate_monitor" "imported" {\n  type = "tcp"\n  name = "made-outside"\n  periodicity = "5m"\n  uri = "127.0.0.1:9"\n}\n`
		);
		await ok(dir, ['import', '-input=false', 'upstate_monitor.imported', String(made.id)], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		expect(attrs(dir, 'imported')).toMatchObject({
			id: String(made.id),
			name: 'made-outside',
			headers: null
		});
		await ok(dir, ['apply', '-auto-approve', '-input=false'], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		expect(
			(
				await tf(dir, ['plan', '-detailed-exitcode', '-input=false'], {
					...attached(),
					TF_VAR_name: 'web-2'
				})
			).code
		).toBe(0);
		const recreated = Number(attrs(dir, 'web')?.id);
		expect(recreated).not.toBe(id);

		await ok(dir, ['destroy', '-auto-approve', '-input=false'], {
			...attached(),
			TF_VAR_name: 'web-2'
		});
		for (const monitorId of [recreated, Number(made.id)])
			await expect(call('monitor.get', { monitorId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
		expect(state(dir)!.resources.filter((r) => r.type === 'upstate_monitor')).toEqual([]);
	}, 120_000);

	it("refuses another workspace's monitor on import: not found, nothing imported", async () => {
		const theirs = await rpc(other.write)('monitor.create', {
			type: 'tcp',
			name: 'theirs',
			periodicity: '5m',
			uri: '127.0.0.1:9'
		});
		const dir = workdir(
			'foreign',
			`resource "upstate_monitor" "x" {\n  type = "tcp"\n  name = "theirs"\n  periodicity = "5m"\n  uri = "127.0.0.1:9"\n}\n`
		);
		const r = await tf(
			dir,
			['import', '-input=false', 'upstate_monitor.x', String(theirs.id)],
			attached()
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`Monitor ${String(theirs.id)} not found`);
		expect(state(dir)?.resources ?? []).toEqual([]);
		expect(await rpc(other.write)('monitor.get', { monitorId: theirs.id })).toMatchObject({
			name: 'theirs'
		});
	});

	it('a bad api_token fails with what to do next, and writes nothing', async () => {
		const before = await rpc(me.write)('monitor.list', {});
		const dir = workdir('bad-token', MONITOR);
		const r = await tf(dir, ['apply', '-auto-approve', '-input=false'], {
			...attached(),
			TF_VAR_token: 'us_not-a-key'
		});
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/Upstate refused the API token/);
		expect(r.stderr).toMatch(/Settings → API keys/);
		expect(await rpc(me.write)('monitor.list', {})).toEqual(before);
		expect(state(dir)?.resources ?? []).toEqual([]);
	});

	it('a read-only key: apply is refused with the scope message, nothing created', async () => {
		const before = await rpc(me.write)('monitor.list', {});
		const dir = workdir('read-only', MONITOR);
		const r = await tf(dir, ['apply', '-auto-approve', '-input=false'], {
			...attached(),
			TF_VAR_token: me.read
		});
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/Upstate refused creating the monitor/);
		expect(r.stderr).toMatch(/write scope/);
		expect(await rpc(me.write)('monitor.list', {})).toEqual(before);
	});

	it('server validation becomes a diagnostic on the attribute; gRPC monitors are refused', async () => {
		const dir = workdir(
			'invalid',
			`resource "upstate_monitor" "bad" {\n  type = "http"\n  name = "bad"\n  periodicity = "1m"\n  url = "ftp://nope"\n}\n`
		);
		const r = await tf(dir, ['apply', '-auto-approve', '-input=false'], attached());
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/Invalid url: must be an http or https URL/);
		const grpcDir = workdir(
			'grpc',
			`resource "upstate_monitor" "g" {\n  type = "grpc"\n  name = "g"\n  periodicity = "1m"\n  uri = "127.0.0.1:9"\n}\n`
		);
		// launched by Terraform through dev_overrides (bin/terraform-provider-upstate), no init
		const g = await tf(grpcDir, ['plan', '-input=false']);
		expect(g.code).toBe(1);
		expect(g.stderr).toMatch(/gRPC monitors are managed from the dashboard/);
	});

	it('data source limits: upstate_monitors limit 1..100', async () => {
		const dir = workdir('limit', `data "upstate_monitors" "x" {\n  limit = 101\n}\n`);
		const r = await tf(dir, ['plan', '-input=false'], attached());
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/limit must be a whole number from 1 to 100/);
	});
});

const PAGES = `
variable "meta" {
  type    = map(string)
  default = { rack = "b2", floor = "3" }
}
variable "run_monitors" {
  type    = bool
  default = true
}
variable "title" {
  type    = string
  default = "Acme status"
}
resource "upstate_monitor" "api" {
  type        = "tcp"
  name        = "api"
  periodicity = "5m"
  uri         = "127.0.0.1:9"
}
resource "upstate_private_location" "rack" {
  name        = "rack-2"
  monitor_ids = var.run_monitors ? [upstate_monitor.api.id] : null
  metadata    = var.meta
}
resource "upstate_status_page" "main" {
  title       = var.title
  slug        = "tf-acme"
  description = "All systems"
}
resource "upstate_status_page_component_group" "core" {
  page_id = upstate_status_page.main.id
  name    = "Core"
}
resource "upstate_status_page_component" "api" {
  page_id     = upstate_status_page.main.id
  monitor_id  = upstate_monitor.api.id
  group_id    = upstate_status_page_component_group.core.id
  description = "The public API"
}
resource "upstate_status_page_component" "desk" {
  page_id = upstate_status_page.main.id
  name    = "Support desk"
  order   = 2
}
output "agent_key" {
  value     = upstate_private_location.rack.token
  sensitive = true
}
`;

describe('private locations and status pages with the real terraform', () => {
	it('journey: create, no-op, clear owned metadata/monitor_ids, update in place, drift, import, destroy', async () => {
		const call = rpc(me.write);
		const dir = workdir('pages', PAGES);
		const plan = (env: Record<string, string> = {}) =>
			tf(dir, ['plan', '-detailed-exitcode', '-input=false'], { ...attached(), ...env });
		const apply = (env: Record<string, string> = {}) =>
			ok(dir, ['apply', '-auto-approve', '-input=false'], { ...attached(), ...env });

		const created = await apply();
		const monitorId = Number(attrs(dir, 'api')?.id);
		const locId = Number(attrs(dir, 'rack')?.id);
		const pageId = Number(attrs(dir, 'main')?.id);
		const loc = await call('privateLocation.get', { privateLocationId: locId });
		expect(loc).toMatchObject({
			name: 'rack-2',
			monitor_ids: [monitorId],
			metadata: { rack: 'b2', floor: '3' }
		});
		// The agent key is kept in state (sensitive), never printed.
		const token = loc.token as string;
		expect(attrs(dir, 'rack')?.token).toBe(token);
		expect(state(dir)!.outputs.agent_key.value).toBe(token);
		const sensitive = state(dir)!.resources.find((r) => r.name === 'rack')!.instances[0]
			.sensitive_attributes;
		expect(JSON.stringify(sensitive)).toContain('token');
		expect(created.stdout + created.stderr).not.toContain(token);
		expect(await call('statusPage.get', { pageId })).toMatchObject({
			title: 'Acme status',
			slug: 'tf-acme',
			description: 'All systems',
			locales: [],
			access_type: 'public'
		});
		const groupId = Number(attrs(dir, 'core')?.id);
		const components = (await call('pageComponent.list', { pageId })).data as Record<
			string,
			unknown
		>[];
		expect(components).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					type: 'monitor',
					monitor_id: monitorId,
					name: 'api',
					group_id: groupId,
					description: 'The public API'
				}),
				expect.objectContaining({ type: 'static', name: 'Support desk', order: 2 })
			])
		);
		const noop = await plan();
		expect(noop.code, noop.stdout).toBe(0);
		expect(noop.stdout).not.toContain(token);

		// Removed from configuration: the provider owns them, so apply clears them.
		const cleared = { TF_VAR_meta: 'null', TF_VAR_run_monitors: 'false' };
		await apply(cleared);
		expect(await call('privateLocation.get', { privateLocationId: locId })).toMatchObject({
			monitor_ids: [],
			metadata: {}
		});
		expect(attrs(dir, 'rack')).toMatchObject({ metadata: null, monitor_ids: null, token });
		expect((await plan(cleared)).code).toBe(0);

		// A new title: an in-place update of the same page.
		const retitled = { ...cleared, TF_VAR_title: 'Acme status (EU)' };
		const change = await plan(retitled);
		expect(change.code).toBe(2);
		expect(change.stdout).toMatch(/upstate_status_page\.main will be updated in-place/);
		expect(change.stdout).toMatch(/1 to change, 0 to destroy/);
		await apply(retitled);
		expect(Number(attrs(dir, 'main')?.id)).toBe(pageId);
		expect(await call('statusPage.get', { pageId })).toMatchObject({ title: 'Acme status (EU)' });

		// Deleted outside Terraform: it leaves the state and the plan creates it again.
		const deskId = Number(
			state(dir)!.resources.find((r) => r.name === 'desk')!.instances[0].attributes.id
		);
		await call('pageComponent.remove', { componentId: deskId });
		const gone = await plan(retitled);
		expect(gone.code).toBe(2);
		expect(gone.stdout).toMatch(/upstate_status_page_component\.desk will be created/);
		await apply(retitled);

		// Import of a page and a component made elsewhere (ids: page_id, page_id/component_id).
		const page = await call('statusPage.create', { title: 'Outside', slug: 'tf-outside' });
		const comp = await call('pageComponent.create', {
			pageId: page.id,
			type: 'static',
			name: 'Made outside'
		});
		writeFileSync(
			path.join(dir, 'imported.tf'),
			`resource "upstate_status_page" "outside" {\n  title = "Outside"\n  slug = "tf-outside"\n}\nresource "upstate_status_page_component" "outside" {\n  page_id = upstate_status_page.outside.id\n  name = "Made outside"\n}\n`
		);
		await ok(dir, ['import', '-input=false', 'upstate_status_page.outside', String(page.id)], {
			...attached(),
			...retitled
		});
		await ok(
			dir,
			['import', '-input=false', 'upstate_status_page_component.outside', `${page.id}/${comp.id}`],
			{ ...attached(), ...retitled }
		);
		expect(attrs(dir, 'outside')).toBeDefined();
		const after = await plan(retitled);
		expect(after.code, after.stdout).toBe(0);

		await ok(dir, ['destroy', '-auto-approve', '-input=false'], { ...attached(), ...retitled });
		for (const pid of [pageId, Number(page.id)])
			await expect(call('statusPage.get', { pageId: pid })).rejects.toMatchObject({
				code: 'NOT_FOUND'
			});
		await expect(call('privateLocation.get', { privateLocationId: locId })).rejects.toMatchObject({
			code: 'NOT_FOUND'
		});
		expect(state(dir)!.resources).toEqual([]);
	}, 180_000);

	it("another workspace's page and component: import says not found", async () => {
		const theirs = rpc(other.write);
		const page = await theirs('statusPage.create', { title: 'Theirs', slug: 'tf-theirs' });
		const comp = await theirs('pageComponent.create', {
			pageId: page.id,
			type: 'static',
			name: 'Theirs'
		});
		const dir = workdir(
			'foreign-page',
			`resource "upstate_status_page" "x" {\n  title = "Theirs"\n  slug = "tf-theirs"\n}\nresource "upstate_status_page_component" "y" {\n  page_id = "${String(page.id)}"\n  name = "Theirs"\n}\n`
		);
		const p = await tf(
			dir,
			['import', '-input=false', 'upstate_status_page.x', String(page.id)],
			attached()
		);
		expect(p.code).toBe(1);
		expect(p.stderr).toContain(`Status page ${String(page.id)} not found`);
		const c = await tf(
			dir,
			['import', '-input=false', 'upstate_status_page_component.y', `${page.id}/${comp.id}`],
			attached()
		);
		expect(c.code).toBe(1);
		expect(c.stderr).toContain(`Status page component ${page.id}/${comp.id} not found`);
		const bad = await tf(
			dir,
			['import', '-input=false', 'upstate_status_page_component.y', String(comp.id)],
			attached()
		);
		expect(bad.stderr).toMatch(/Import with page_id\/component_id/);
		expect(state(dir)?.resources ?? []).toEqual([]);
		expect(await theirs('statusPage.get', { pageId: page.id })).toMatchObject({ title: 'Theirs' });
	});

	it('a read-only key is refused with the scope message; a bad or taken slug names slug', async () => {
		const page = (slug: string) =>
			`resource "upstate_status_page" "p" {\n  title = "P"\n  slug = "${slug}"\n}\n`;
		const before = await rpc(me.write)('statusPage.list', {});
		const ro = await tf(
			workdir('page-ro', page('tf-ro')),
			['apply', '-auto-approve', '-input=false'],
			{
				...attached(),
				TF_VAR_token: me.read
			}
		);
		expect(ro.code).toBe(1);
		expect(ro.stderr).toMatch(/Upstate refused creating the status page/);
		expect(ro.stderr).toMatch(/write scope/);

		const invalid = await tf(
			workdir('page-bad-slug', page('Not A Slug')),
			['apply', '-auto-approve', '-input=false'],
			attached()
		);
		expect(invalid.code).toBe(1);
		expect(invalid.stderr).toMatch(/Invalid slug: use lowercase letters, digits and single dashes/);

		await rpc(other.write)('statusPage.create', { title: 'T', slug: 'tf-taken' });
		const taken = await tf(
			workdir('page-taken', page('tf-taken')),
			['apply', '-auto-approve', '-input=false'],
			attached()
		);
		expect(taken.code).toBe(1);
		expect(taken.stderr).toMatch(/slug 'tf-taken' is already taken/);
		expect(taken.stderr).toMatch(/slug\s+= "tf-taken"/);
		expect(await rpc(me.write)('statusPage.list', {})).toEqual(before);
	});
});

const CHANNELS = `
variable "endpoint" { type = string }
variable "hook_secret" { type = string }
variable "channel_name" {
  type    = string
  default = "ops"
}
variable "wired" {
  type    = bool
  default = true
}
variable "title" {
  type    = string
  default = "Database upgrade"
}
resource "upstate_monitor" "svc" {
  type        = "tcp"
  name        = "svc"
  periodicity = "5m"
  uri         = "127.0.0.1:9"
}
resource "upstate_notification" "ops" {
  name          = var.channel_name
  provider_type = "webhook"
  webhook = {
    endpoint = var.endpoint
    headers  = [{ key = "authorization", value = "Bearer \${var.hook_secret}" }]
  }
  monitor_ids = var.wired ? [upstate_monitor.svc.id] : null
}
resource "upstate_status_page" "maint" {
  title = "Maintenance"
  slug  = "tf-maint"
}
resource "upstate_status_page_component" "db" {
  page_id = upstate_status_page.maint.id
  name    = "Database"
}
resource "upstate_maintenance" "db" {
  page_id            = upstate_status_page.maint.id
  title              = var.title
  message            = "Read-only for two hours"
  from               = "2030-01-01T02:00:00Z"
  to                 = "2030-01-01T06:00:00+02:00"
  page_component_ids = [upstate_status_page_component.db.id]
  notify             = false
}
`;

describe('notification channels and maintenance windows with the real terraform', () => {
	// A workspace of its own: its keys' rate limit is not shared with the tests above.
	let ws: Ws;
	const own = () => ({ ...attached(), TF_VAR_token: ws.write });
	let hook: Server;
	const received: { authorization?: string; signature?: string }[] = [];
	beforeAll(async () => {
		ws = await stack.workspace();
		hook = createServer((req, res) => {
			received.push({
				authorization: req.headers.authorization,
				signature: String(req.headers['x-upstate-signature'] ?? '')
			});
			req.resume();
			res.end('ok');
		});
		await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
	});
	afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

	it('journey: a webhook channel on a monitor and a maintenance window; secrets never printed', async () => {
		const call = rpc(ws.write);
		const secret = 'tf3-hook-secret-4c1d9e';
		const endpoint = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
		const base = { ...own(), TF_VAR_endpoint: endpoint, TF_VAR_hook_secret: secret };
		const dir = workdir('channels', CHANNELS);
		const outputs: string[] = [];
		const run = async (args: string[], env: Record<string, string>) => {
			const r = await tf(dir, args, { ...base, ...env });
			outputs.push(r.stdout, r.stderr);
			return r;
		};
		const apply = async (env: Record<string, string> = {}) => {
			const r = await run(['apply', '-auto-approve', '-input=false'], env);
			if (r.code !== 0) throw new Error(`apply → ${r.code}\n${r.stdout}\n${r.stderr}`);
			return r;
		};
		const plan = (env: Record<string, string> = {}) =>
			run(['plan', '-detailed-exitcode', '-input=false'], env);

		await apply();
		const monitorId = Number(attrs(dir, 'svc')?.id);
		const channelId = Number(attrs(dir, 'ops')?.id);
		const maintId = Number(attrs(dir, 'db')?.id);
		const componentId = Number(
			state(dir)!.resources.find((r) => r.type === 'upstate_status_page_component')!.instances[0]
				.attributes.id
		);
		const channel = () => call('notificationChannel.get', { notificationChannelId: channelId });
		expect(await channel()).toMatchObject({
			name: 'ops',
			provider_type: 'webhook',
			monitor_ids: [monitorId],
			webhook: { endpoint },
			secret_hints: { headers: 'authorization' }
		});
		// The header was stored as configured: a test delivery carries it.
		expect(
			await call('notificationChannel.sendTest', { notificationChannelId: channelId })
		).toMatchObject({ ok: true });
		expect(received.at(-1)?.authorization).toBe(`Bearer ${secret}`);
		// Write-only secrets stay in state as configured and sensitive; the signing secret too.
		const ops = state(dir)!.resources.find((r) => r.name === 'ops')!.instances[0];
		expect(ops.attributes.webhook).toMatchObject({
			headers: [{ key: 'authorization', value: `Bearer ${secret}` }]
		});
		expect(String(ops.attributes.signing_secret)).toMatch(/^whsec_/);
		expect(JSON.stringify(ops.sensitive_attributes)).toContain('signing_secret');
		expect(JSON.stringify(ops.sensitive_attributes)).toContain('headers');
		expect(await call('maintenance.get', { maintenanceId: maintId })).toMatchObject({
			title: 'Database upgrade',
			message: 'Read-only for two hours',
			from: '2030-01-01T02:00:00.000Z',
			to: '2030-01-01T04:00:00.000Z',
			pageComponentIds: [componentId],
			notify: false
		});
		expect(attrs(dir, 'db')).toMatchObject({ to: '2030-01-01T06:00:00+02:00', notify: false });

		const noop = await plan();
		expect(noop.code, noop.stdout).toBe(0);

		// A new name: the same channel, updated in place; the header stays.
		const renamed = { TF_VAR_channel_name: 'ops-eu' };
		const change = await plan(renamed);
		expect(change.code).toBe(2);
		expect(change.stdout).toMatch(/upstate_notification\.ops will be updated in-place/);
		expect(change.stdout).toMatch(/0 to add, 1 to change, 0 to destroy/);
		await apply(renamed);
		expect(Number(attrs(dir, 'ops')?.id)).toBe(channelId);
		expect(await channel()).toMatchObject({
			name: 'ops-eu',
			secret_hints: { headers: 'authorization' }
		});

		// monitor_ids left out: the channel is wired to none, and then plans no change.
		const unwired = { ...renamed, TF_VAR_wired: 'false' };
		await apply(unwired);
		expect(await channel()).toMatchObject({ monitor_ids: [] });
		expect(attrs(dir, 'ops')?.monitor_ids).toBeNull();
		expect((await plan(unwired)).code).toBe(0);

		// A new maintenance title: updated in place, notify not sent again.
		const retitled = { ...unwired, TF_VAR_title: 'Database upgrade (extended)' };
		await apply(retitled);
		expect(Number(attrs(dir, 'db')?.id)).toBe(maintId);
		expect(await call('maintenance.get', { maintenanceId: maintId })).toMatchObject({
			title: 'Database upgrade (extended)',
			notify: false
		});
		expect((await plan(retitled)).code).toBe(0);

		await run(['destroy', '-auto-approve', '-input=false'], retitled);
		await expect(channel()).rejects.toMatchObject({ code: 'NOT_FOUND' });
		await expect(call('maintenance.get', { maintenanceId: maintId })).rejects.toMatchObject({
			code: 'NOT_FOUND'
		});
		expect(state(dir)!.resources).toEqual([]);
		const printed = outputs.join('\n');
		expect(printed).not.toContain(secret);
		expect(printed).not.toContain(String(ops.attributes.signing_secret));
	}, 180_000);

	it("import: another workspace's channel or window is not found; an own channel's secrets are re-sent once", async () => {
		const theirs = rpc(other.write);
		const ch = await theirs('notificationChannel.create', {
			name: 'theirs',
			provider_type: 'email',
			email: { email: 'ops@example.com' }
		});
		const page = await theirs('statusPage.create', { title: 'Theirs', slug: 'tf-theirs-maint' });
		const m = await theirs('maintenance.create', {
			pageId: page.id,
			from: '2030-01-01T02:00:00Z',
			to: '2030-01-01T03:00:00Z',
			notify: false
		});
		const mine = await rpc(ws.write)('notificationChannel.create', {
			name: 'mine',
			provider_type: 'slack',
			slack: { webhook_url: 'https://hooks.example.com/T000/secret-slack-path' }
		});
		const dir = workdir(
			'foreign-channel',
			`resource "upstate_notification" "x" {\n  name = "theirs"\n  provider_type = "email"\n  email = { email = "ops@example.com" }\n}\n` +
				`resource "upstate_maintenance" "y" {\n  page_id = "${String(page.id)}"\n  title = "Scheduled maintenance"\n  from = "2030-01-01T02:00:00Z"\n  to = "2030-01-01T03:00:00Z"\n  notify = false\n}\n` +
				`resource "upstate_notification" "mine" {\n  name = "mine"\n  provider_type = "slack"\n  slack = { webhook_url = "https://hooks.example.com/T000/secret-slack-path" }\n}\n`
		);
		const c = await tf(
			dir,
			['import', '-input=false', 'upstate_notification.x', String(ch.id)],
			own()
		);
		expect(c.code).toBe(1);
		expect(c.stderr).toContain(`Notification channel ${String(ch.id)} not found`);
		const w = await tf(
			dir,
			['import', '-input=false', 'upstate_maintenance.y', String(m.id)],
			own()
		);
		expect(w.code).toBe(1);
		expect(w.stderr).toContain(`Maintenance window ${String(m.id)} not found`);
		expect(state(dir)?.resources ?? []).toEqual([]);

		// Imported, the webhook_url is unknown to state: the next plan sets it (shown as
		// sensitive), then nothing.
		await ok(dir, ['import', '-input=false', 'upstate_notification.mine', String(mine.id)], own());
		expect(attrs(dir, 'mine')).toMatchObject({ name: 'mine', slack: { webhook_url: null } });
		const p = await tf(
			dir,
			['plan', '-input=false', '-target=upstate_notification.mine', '-detailed-exitcode'],
			own()
		);
		expect(p.code).toBe(2);
		expect(p.stdout).toMatch(/upstate_notification\.mine will be updated in-place/);
		expect(p.stdout).toMatch(/webhook_url = \(sensitive value\)/);
		expect(p.stdout).not.toContain('secret-slack-path');
		expect(await theirs('notificationChannel.get', { notificationChannelId: ch.id })).toMatchObject(
			{ name: 'theirs' }
		);
	});

	it('a bad provider_type, a missing provider block or an end before the start: a diagnostic naming it', async () => {
		const before = await rpc(ws.write)('notificationChannel.list', {});
		const bad = await tf(
			workdir(
				'channel-bad-type',
				`resource "upstate_notification" "x" {\n  provider_type = "pigeon"\n  email = { email = "ops@example.com" }\n}\n`
			),
			['apply', '-auto-approve', '-input=false'],
			own()
		);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/Invalid provider_type/);
		expect(bad.stderr).toMatch(/provider_type\s+= "pigeon"/);
		const missing = await tf(
			workdir(
				'channel-no-block',
				`resource "upstate_notification" "x" {\n  provider_type = "webhook"\n}\n`
			),
			['apply', '-auto-approve', '-input=false'],
			own()
		);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/Invalid webhook: required for provider_type webhook/);
		expect(await rpc(ws.write)('notificationChannel.list', {})).toEqual(before);

		const page = await rpc(ws.write)('statusPage.create', { title: 'M', slug: 'tf-maint-bad' });
		const reversed = await tf(
			workdir(
				'maint-reversed',
				`resource "upstate_maintenance" "x" {\n  page_id = "${String(page.id)}"\n  title = "Backwards"\n  from = "2030-01-01T05:00:00Z"\n  to = "2030-01-01T03:00:00Z"\n  notify = false\n}\n`
			),
			['apply', '-auto-approve', '-input=false'],
			own()
		);
		expect(reversed.code).toBe(1);
		expect(reversed.stderr).toMatch(/Invalid to: End date must be after start date/);
		expect(reversed.stderr).toMatch(/to\s+= "2030-01-01T03:00:00Z"/);
	});
});
