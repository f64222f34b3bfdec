import { statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemCtx } from '../../server/test/alerting.ts';
import { ctxFor } from '../../server/test/factories.ts';
import { recordStatusChange } from '../../server/src/domain/incident/index.ts';
import { tempDir, upstate } from './run.ts';
import { startCliStack } from './stack.ts';

type Id = { id: number };
let stack: Awaited<ReturnType<typeof startCliStack>>;
let env: Record<string, string>;
let me: Awaited<ReturnType<Awaited<ReturnType<typeof startCliStack>>['workspace']>>;
const hooks: Array<{ url: string; body: string }> = [];
let hookServer: http.Server;
let hookUrl: string;

beforeAll(async () => {
	stack = await startCliStack();
	me = await stack.workspace();
	env = me.env;
	hookServer = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			hooks.push({ url: req.url ?? '', body });
			res.writeHead(200).end('ok');
		});
	});
	await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
	hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
	await new Promise<void>((r) => hookServer.close(() => r()));
	await stack.close();
});

const cli = (...argv: string[]) => upstate(argv, { env });
const json = async <T = Id>(...argv: string[]) => {
	const r = await upstate(['--json', ...argv], { env });
	if (r.code !== 0) throw new Error(`upstate ${argv.join(' ')} → ${r.code}\n${r.stderr}`);
	return r.json<T>();
};

describe('upstate commands over /rpc', () => {
	it('whoami names the workspace and the key', async () => {
		const who = await json<{ workspace: { id: number }; credential: { scope: string } }>('whoami');
		expect(who.workspace.id).toBe(me.ws.id);
		expect(who.credential.scope).toBe('write');
		const table = await cli('whoami');
		expect(table.stdout).toContain(me.ws.slug);
	});

	it('login keeps a checked key in the config dir, readable by the user only', async () => {
		const dir = tempDir();
		const login = await upstate(['login', '--base-url', stack.api.url], {
			env: { UPSTATE_CONFIG_DIR: dir },
			stdin: `${me.read}\n`
		});
		expect(login.code).toBe(0);
		expect(login.stdout).toContain(`Logged in to workspace ${me.ws.name}`);
		const file = path.join(dir, 'credentials.json');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		const who = await upstate(['whoami', '--json'], { env: { UPSTATE_CONFIG_DIR: dir } });
		expect(who.json<{ credential: { scope: string } }>().credential.scope).toBe('read');

		const bad = await upstate(['login', '--base-url', stack.api.url], {
			env: { UPSTATE_CONFIG_DIR: tempDir() },
			stdin: 'not-a-key'
		});
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/UNAUTHORIZED .*\n→ check the key/);
	});

	it('manages monitors: create, list, get, update, pause, resume, trigger, results, delete', async () => {
		const m = await json<Id & { active: boolean }>(
			'monitors',
			'create',
			'--type',
			'http',
			'--name',
			'API',
			'--periodicity',
			'1m',
			'--url',
			'http://127.0.0.1:9/health'
		);
		expect(m.active).toBe(false);
		const list = await json<Array<Id & { name: string }>>('monitors', 'list');
		expect(list.map((x) => x.id)).toContain(m.id);
		expect((await cli('monitors', 'list')).stdout).toMatch(
			/API\s+│\s+http\s+│\s+http:\/\/127\.0\.0\.1:9\/health/
		);
		expect(await json('monitors', 'get', String(m.id))).toMatchObject({
			name: 'API',
			timeout: 45000
		});
		expect(
			await json('monitors', 'update', String(m.id), '--name', 'API v2', '--retry', '1')
		).toMatchObject({ name: 'API v2', retry: 1 });
		expect(await json('monitors', 'resume', String(m.id))).toMatchObject({ active: true });
		expect(await json('monitors', 'pause', String(m.id))).toMatchObject({ active: false });
		expect(await json('monitors', 'results', String(m.id))).toEqual([]);
		// `monitors trigger` asks the probes (cli/test/trigger.test.ts); a paused monitor is refused.
		const paused = await cli('monitors', 'trigger', String(m.id));
		expect(paused.code).toBe(1);
		expect(paused.stderr).toMatch(/PRECONDITION_FAILED monitor \d+ is paused/);
		const bad = await cli(
			'monitors',
			'create',
			'--type',
			'http',
			'--name',
			'X',
			'--periodicity',
			'2m',
			'--url',
			'ftp://x'
		);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/VALIDATION/);
		expect(bad.stderr).toContain('periodicity');
		expect(bad.stderr).toContain('url: must be an http or https URL');
		expect((await cli('monitors', 'delete', String(m.id))).code).toBe(0);
		const gone = await cli('monitors', 'get', String(m.id));
		expect(gone.code).toBe(1);
		expect(gone.stderr).toContain(`NOT_FOUND monitor ${m.id} not found`);
	});

	it('manages pages, groups, components, reports (with --notify required) and maintenance', async () => {
		const monitor = await json(
			'monitors',
			'create',
			'--type',
			'tcp',
			'--name',
			'DB',
			'--periodicity',
			'5m',
			'--uri',
			'127.0.0.1:5432'
		);
		const page = await json(
			'status-pages',
			'create',
			'--title',
			'Acme',
			'--slug',
			`acme-${me.ws.id}`
		);
		expect((await json<Array<Id>>('status-pages', 'list')).map((p) => p.id)).toContain(page.id);
		expect(
			await json('status-pages', 'update', String(page.id), '--description', 'All of Acme')
		).toMatchObject({ description: 'All of Acme' });
		expect(await json('status-pages', 'get', String(page.id))).toMatchObject({ title: 'Acme' });
		const group = await json(
			'components',
			'groups',
			'create',
			'--page',
			String(page.id),
			'--name',
			'Core'
		);
		expect(
			await json('components', 'groups', 'update', String(group.id), '--name', 'Core services')
		).toMatchObject({ name: 'Core services' });
		expect(
			await json<Array<Id>>('components', 'groups', 'list', '--page', String(page.id))
		).toHaveLength(1);
		const component = await json(
			'components',
			'create',
			'--page',
			String(page.id),
			'--type',
			'monitor',
			'--monitor',
			String(monitor.id),
			'--group',
			String(group.id)
		);
		const moved = await json<Id & { name: string; group_id?: number | null }>(
			'components',
			'update',
			String(component.id),
			'--name',
			'Database',
			'--no-group'
		);
		// /rpc leaves null fields out of its answers, and so does --json.
		expect(moved.name).toBe('Database');
		expect(moved.group_id ?? null).toBeNull();
		expect(await json<Array<Id>>('components', 'list', '--page', String(page.id))).toEqual([
			expect.objectContaining({ id: component.id })
		]);

		const noNotify = await cli(
			'reports',
			'create',
			'--page',
			String(page.id),
			'--title',
			'Slow',
			'--status',
			'investigating',
			'--message',
			'Looking'
		);
		expect(noNotify.code).toBe(2);
		expect(noNotify.stderr).toContain('publishing needs --notify or --no-notify');
		const report = await json<Id & { notified: boolean }>(
			'reports',
			'create',
			'--page',
			String(page.id),
			'--title',
			'Slow',
			'--status',
			'investigating',
			'--message',
			'Looking',
			'--component',
			String(component.id),
			'--no-notify'
		);
		expect(
			await json('reports', 'update', String(report.id), '--title', 'Slow database')
		).toMatchObject({ title: 'Slow database' });
		expect(
			await json(
				'reports',
				'add-update',
				String(report.id),
				'--status',
				'identified',
				'--message',
				'Found it',
				'--notify'
			)
		).toMatchObject({ status: 'identified', notified: true });
		expect((await json<Array<Id>>('reports', 'list')).map((r) => r.id)).toContain(report.id);
		expect(
			await json('reports', 'resolve', String(report.id), '--message', 'Fixed', '--no-notify')
		).toMatchObject({ status: 'resolved', notified: false });
		expect(await json<Array<Id>>('reports', 'list')).toEqual([]);
		expect((await json<Array<Id>>('reports', 'list', '--all')).map((r) => r.id)).toEqual([
			report.id
		]);
		expect(await json('reports', 'get', String(report.id))).toMatchObject({
			title: 'Slow database'
		});

		const window = await json<Id & { notify: boolean }>(
			'maintenance',
			'create',
			'--page',
			String(page.id),
			'--title',
			'Upgrade',
			'--from',
			'2030-01-01T02:00:00Z',
			'--to',
			'2030-01-01T03:00:00Z',
			'--no-notify'
		);
		expect(window.notify).toBe(false);
		expect(
			await json('maintenance', 'update', String(window.id), '--title', 'DB upgrade')
		).toMatchObject({ title: 'DB upgrade' });
		expect(await json('maintenance', 'get', String(window.id))).toMatchObject({
			title: 'DB upgrade'
		});
		expect(
			(await json<Array<Id>>('maintenance', 'list', '--page', String(page.id))).map((w) => w.id)
		).toEqual([window.id]);
		const backwards = await cli(
			'maintenance',
			'update',
			String(window.id),
			'--to',
			'2029-01-01T00:00:00Z'
		);
		expect(backwards.code).toBe(1);
		expect(backwards.stderr).toContain('End date must be after start date.');
		expect((await cli('maintenance', 'delete', String(window.id))).code).toBe(0);
		expect((await cli('components', 'delete', String(component.id))).code).toBe(0);
		expect((await cli('components', 'groups', 'delete', String(group.id))).code).toBe(0);
		expect((await cli('status-pages', 'delete', String(page.id))).code).toBe(0);
	});

	it('manages notification channels and sends a test through one', async () => {
		const monitor = await json(
			'monitors',
			'create',
			'--type',
			'dns',
			'--name',
			'Zone',
			'--periodicity',
			'10m',
			'--uri',
			'example.com'
		);
		const channel = await json<Id & { monitor_ids: number[] }>(
			'notifications',
			'create',
			'--provider',
			'webhook',
			'--name',
			'Hook',
			'--set',
			`endpoint=${hookUrl}`,
			'--monitor',
			String(monitor.id)
		);
		expect(channel.monitor_ids).toEqual([monitor.id]);
		expect(
			await json('notifications', 'update', String(channel.id), '--name', 'Ops hook')
		).toMatchObject({ name: 'Ops hook' });
		expect(await json('notifications', 'get', String(channel.id))).toMatchObject({
			provider_type: 'webhook'
		});
		expect((await json<Array<Id>>('notifications', 'list')).map((c) => c.id)).toContain(channel.id);
		const test = await cli('notifications', 'test', String(channel.id));
		expect(test.code).toBe(0);
		expect(test.stdout).toContain('Test message sent (200)');
		expect(hooks.filter((h) => h.url === '/hook')).toHaveLength(1);
		expect((await cli('notifications', 'delete', String(channel.id))).code).toBe(0);
	});

	it('manages private locations', async () => {
		const loc = await json<Id & { token: string }>(
			'locations',
			'create',
			'--name',
			'Basement',
			'--meta',
			'rack=b2'
		);
		expect(loc.token).toBeTruthy();
		expect(await json('locations', 'update', String(loc.id), '--name', 'Cellar')).toMatchObject({
			name: 'Cellar',
			metadata: { rack: 'b2' }
		});
		expect(await json('locations', 'get', String(loc.id))).toMatchObject({ token: loc.token });
		const list = await json<Array<Id & { token?: string }>>('locations', 'list');
		expect(list.find((l) => l.id === loc.id)?.token).toBeUndefined();
		expect((await cli('locations', 'delete', String(loc.id))).code).toBe(0);
	});

	it('lists, acknowledges and resolves incidents', async () => {
		const monitor = await json(
			'monitors',
			'create',
			'--type',
			'icmp',
			'--name',
			'Router',
			'--periodicity',
			'10m',
			'--uri',
			'127.0.0.1'
		);
		const ctx = ctxFor(stack.db, me.ws);
		const opened = await recordStatusChange({
			ctx: systemCtx(ctx),
			input: {
				monitorId: monitor.id,
				from: 'active',
				to: 'error',
				error: 'timeout',
				at: new Date().toISOString()
			},
			dashboardUrl: 'http://dash.test'
		});
		const id = String(opened.incidentId);
		expect((await json<Array<Id>>('incidents', 'list', '--open')).map((i) => i.id)).toEqual([
			opened.incidentId
		]);
		expect(await json('incidents', 'get', id)).toMatchObject({
			monitorName: 'Router',
			status: 'open'
		});
		expect(await json('incidents', 'ack', id)).toMatchObject({ status: 'acknowledged' });
		expect(await json('incidents', 'resolve', id)).toMatchObject({ status: 'resolved' });
		expect(await json('incidents', 'list', '--open')).toEqual([]);
	});

	it('reads the audit log of what the CLI did', async () => {
		const entries = await json<Array<Id & { actor_id: string; entity_type: string }>>(
			'audit-log',
			'list',
			'--entity-type',
			'monitor'
		);
		expect(entries.length).toBeGreaterThan(0);
		expect(entries[0].entity_type).toBe('monitor');
		expect(await json('audit-log', 'get', String(entries[0].id))).toMatchObject({
			id: entries[0].id
		});
		expect((await cli('audit-log', 'list')).stdout).toContain('ACTION');
	});

	it('says what to do next for bad keys, read keys, other workspaces and unreachable servers', async () => {
		const none = await upstate(['monitors', 'list'], { env: { UPSTATE_BASE_URL: stack.api.url } });
		expect(none.code).toBe(1);
		expect(none.stderr).toContain('no API key\n→ set UPSTATE_API_KEY or run `upstate login`');
		const wrong = await upstate(['monitors', 'list'], {
			env: { ...env, UPSTATE_API_KEY: 'us_nope' }
		});
		expect(wrong.code).toBe(1);
		expect(wrong.stderr).toMatch(/^error UNAUTHORIZED /);
		const read = await upstate(
			[
				'monitors',
				'create',
				'--type',
				'tcp',
				'--name',
				'X',
				'--periodicity',
				'10m',
				'--uri',
				'a.example:1'
			],
			{ env: me.readEnv }
		);
		expect(read.code).toBe(1);
		expect(read.stderr).toMatch(/FORBIDDEN .*\n→ this key is read-only/);

		const other = await stack.workspace();
		const theirs = await upstate(
			[
				'--json',
				'monitors',
				'create',
				'--type',
				'tcp',
				'--name',
				'Theirs',
				'--periodicity',
				'10m',
				'--uri',
				'b.example:1'
			],
			{ env: other.env }
		);
		const theirId = String(theirs.json<Id>().id);
		for (const argv of [
			['monitors', 'get', theirId],
			['monitors', 'delete', theirId],
			['monitors', 'pause', theirId]
		]) {
			const r = await cli(...argv);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain(`NOT_FOUND monitor ${theirId} not found`);
		}
		const asJson = await upstate(['--json', 'monitors', 'get', theirId], { env });
		expect(JSON.parse(asJson.stderr)).toMatchObject({
			error: { code: 'NOT_FOUND', message: `monitor ${theirId} not found` }
		});

		const down = await upstate(['monitors', 'list', '--base-url', 'http://127.0.0.1:9'], { env });
		expect(down.code).toBe(1);
		expect(down.stderr).toContain('cannot reach the API server at http://127.0.0.1:9');
	});

	it('prints nothing with --quiet, and colour only on a terminal without NO_COLOR or --no-color', async () => {
		const quiet = await upstate(
			[
				'--quiet',
				'monitors',
				'create',
				'--type',
				'tcp',
				'--name',
				'Q',
				'--periodicity',
				'10m',
				'--uri',
				'q.example:1'
			],
			{ env }
		);
		expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
		const ESC = '\u001b[';
		expect((await upstate(['monitors', 'list'], { env, tty: true })).stdout).toContain(ESC);
		expect(
			(await upstate(['monitors', 'list'], { env: { ...env, NO_COLOR: '1' }, tty: true })).stdout
		).not.toContain(ESC);
		expect(
			(await upstate(['--no-color', 'monitors', 'list'], { env, tty: true })).stdout
		).not.toContain(ESC);
		expect((await upstate(['monitors', 'list'], { env })).stdout).not.toContain(ESC);
	});

	it('exits 2 on usage errors, 0 on --help', async () => {
		expect((await cli('monitors', 'get', 'abc')).code).toBe(2);
		const unknown = await cli('monitors', 'frobnicate');
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
		expect(unknown.stderr).toContain('→ `upstate --help` lists the commands');
		const missing = await cli('components', 'list');
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain("required option '--page <id>' not specified");
		const help = await cli('monitors', '--help');
		expect(help.code).toBe(0);
		expect(help.stdout).toContain('pause');
	});
});
