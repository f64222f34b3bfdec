import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, upstate } from './run.ts';
import { rest, startCliStack } from './stack.ts';

type Ws = Awaited<ReturnType<Awaited<ReturnType<typeof startCliStack>>['workspace']>>;
let stack: Awaited<ReturnType<typeof startCliStack>>;
let a: Ws;
let dir: string;
let file: string;
const SLACK = 'https://hooks.slack.example/T000/B000/XXXXsecret1234';
const secretEnv = {
	UPSTATE_CHANNEL_ONCALL_WEBHOOK_URL: SLACK,
	UPSTATE_PAGE_ACME_PASSWORD: 'hunter22'
};

// A workspace with every kind of resource the file holds, made over REST as a team would click it.
async function seed(ws: Ws) {
	const call = rest(stack.api.url, ws.write);
	const api = await call('POST', '/v1/monitors', {
		type: 'http',
		name: 'API',
		periodicity: '1m',
		url: 'https://api.example.com/health',
		headers: [{ key: 'Accept', value: 'application/json' }],
		status_code_assertions: [{ comparator: 'eq', target: 200 }],
		body_assertions: [{ comparator: 'contains', target: 'ok' }]
	});
	const db = await call('POST', '/v1/monitors', {
		type: 'tcp',
		name: 'Database',
		periodicity: '5m',
		uri: 'db.example.com:5432'
	});
	await call('POST', '/v1/monitors', {
		type: 'dns',
		name: 'Zone',
		periodicity: '10m',
		uri: 'example.com',
		record_assertions: [{ record: 'A', comparator: 'eq', target: '1.2.3.4' }]
	});
	await call('POST', '/v1/monitors', {
		type: 'grpc',
		name: 'Orders',
		periodicity: '10m',
		uri: 'orders.example.com:443',
		service: 'orders',
		metadata: [{ key: 'x-team', value: 'a' }]
	});
	const page = await call('POST', '/v1/status-pages', {
		title: 'Acme',
		slug: `acme-${ws.ws.id}`,
		access_type: 'password',
		password: 'hunter22',
		locales: ['de']
	});
	const group = await call('POST', `/v1/status-pages/${page.id}/component-groups`, {
		name: 'Core'
	});
	const component = await call('POST', `/v1/status-pages/${page.id}/components`, {
		type: 'monitor',
		monitor_id: api.id,
		group_id: group.id,
		order: 1
	});
	await call('POST', `/v1/status-pages/${page.id}/components`, {
		type: 'static',
		name: 'Support',
		order: 2
	});
	await call('POST', '/v1/notifications', {
		name: 'Oncall',
		provider_type: 'slack',
		slack: { webhook_url: SLACK },
		monitor_ids: [api.id, db.id]
	});
	await call('POST', '/v1/maintenances', {
		pageId: page.id,
		title: 'DB upgrade',
		from: '2030-01-01T02:00:00Z',
		to: '2030-01-01T03:00:00Z',
		pageComponentIds: [component.id],
		notify: false
	});
	return { api, db, page };
}

const LIMITS = { 'password-protection': true, i18n: true };
const cli = (ws: Ws, ...argv: string[]) => upstate(argv, { env: { ...ws.env, ...secretEnv } });

beforeAll(async () => {
	stack = await startCliStack();
	a = await stack.workspace(LIMITS);
	dir = tempDir();
	file = path.join(dir, 'upstate.yaml');
});
afterAll(() => stack.close());

describe('config as code', () => {
	let seeded: Awaited<ReturnType<typeof seed>>;

	it('exports a workspace with every kind of resource, secrets as variables', async () => {
		seeded = await seed(a);
		const r = await cli(a, 'export', '-f', file);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain('UPSTATE_CHANNEL_ONCALL_WEBHOOK_URL');
		const yaml = readFileSync(file, 'utf8');
		expect(yaml.split('\n')[0]).toBe('# yaml-language-server: $schema=./upstate.schema.json');
		expect(existsSync(path.join(dir, 'upstate.schema.json'))).toBe(true);
		expect(yaml).not.toContain('XXXXsecret1234');
		expect(yaml).not.toContain('hunter22');
		expect(yaml).toContain('webhook_url: ${UPSTATE_CHANNEL_ONCALL_WEBHOOK_URL}');
		expect(yaml).toContain(
			'password: ${UPSTATE_PAGE_ACME_PASSWORD}'.replace('ACME', `ACME_${a.ws.id}`)
		);
		for (const section of [
			'monitors:',
			'status_pages:',
			'component_groups:',
			'components:',
			'notification_channels:',
			'maintenance:'
		])
			expect(yaml).toContain(section);
		const lock = JSON.parse(readFileSync(path.join(dir, 'upstate.lock.json'), 'utf8'));
		expect(lock.workspace.id).toBe(a.ws.id);
		expect(lock.resources.monitors.api).toBe(seeded.api.id);
	});

	it('prints the export with -f - and the JSON Schema with `upstate schema`', async () => {
		const printed = await cli(a, 'export', '-f', '-');
		expect(printed.stdout).toBe(readFileSync(file, 'utf8'));
		const schema = await cli(a, 'schema');
		expect(schema.json()).toEqual(
			JSON.parse(readFileSync(path.join(dir, 'upstate.schema.json'), 'utf8'))
		);
		const again = await cli(a, 'export', '-f', file);
		expect(again.code).toBe(1);
		expect(again.stderr).toContain('→ pass --force to overwrite it');
	});

	it('finds no difference between the export and the workspace', async () => {
		const env = { [`UPSTATE_PAGE_ACME_${a.ws.id}_PASSWORD`]: 'hunter22' };
		const r = await upstate(['plan', '-f', file, '--exit-code'], {
			env: { ...a.env, ...secretEnv, ...env }
		});
		expect(r.stderr).toBe('');
		expect(r.stdout).toContain('No changes');
		expect(r.code).toBe(0);
	});

	it('applies the exported file into an empty workspace, then applying again changes nothing', async () => {
		const b = await stack.workspace(LIMITS);
		const env = { ...b.env, ...secretEnv, [`UPSTATE_PAGE_ACME_${a.ws.id}_PASSWORD`]: 'pw-b' };
		// Slugs are unique across workspaces: B's copy of the page takes its own.
		const copy = path.join(dir, 'copy.yaml');
		writeFileSync(
			copy,
			readFileSync(file, 'utf8').replace(`slug: acme-${a.ws.id}`, `slug: acme-b-${b.ws.id}`)
		);
		const planned = await upstate(['--json', 'plan', '-f', copy], { env });
		const creates = planned.json<{
			changes: Array<{ kind: string; input: Record<string, unknown> }>;
		}>().changes;
		// Ids not yet made are named by the entry that will make them.
		expect(
			creates.find((c) => c.kind === 'components' && c.input.type === 'monitor')?.input
		).toMatchObject({
			monitor_id: '(new monitors.api)',
			pageId: `(new status_pages.acme-${a.ws.id})`
		});
		const first = await upstate(['apply', '-f', copy], { env });
		expect(first.code).toBe(0);
		expect(first.stdout).toContain('Applied: 10 created, 0 updated, 0 replaced, 0 deleted');
		expect(first.stderr).toMatch(/^\[\d+\/10\] \+ monitors\.api create monitor "API" → id \d+$/m);
		const before = await upstate(['--json', 'audit-log', 'list'], { env });
		const second = await upstate(['--json', 'apply', '-f', copy], { env });
		expect(second.json()).toMatchObject({ created: 0, updated: 0, replaced: 0, deleted: 0 });
		const after = await upstate(['--json', 'audit-log', 'list'], { env });
		expect(after.json()).toEqual(before.json());
		const plan = await upstate(['plan', '-f', copy, '--exit-code'], { env });
		expect(plan.code).toBe(0);
		// What B holds matches A field for field (ids aside).
		const strip = (list: Array<Record<string, unknown>>) =>
			list.map(
				({
					id: _i,
					created_at: _c,
					updated_at: _u,
					status: _s,
					notification_channel_ids: _n,
					...rest
				}) => rest
			);
		const mA = await upstate(['--json', 'monitors', 'list'], { env: a.env });
		const mB = await upstate(['--json', 'monitors', 'list'], { env });
		expect(strip(mB.json())).toEqual(strip(mA.json()));
	});

	it('shows drift made over REST field by field, exits 3, and apply puts it back', async () => {
		const call = rest(stack.api.url, a.write);
		await call('PATCH', `/v1/monitors/${seeded.api.id}`, { name: 'API (edited)', retry: 5 });
		const env = { [`UPSTATE_PAGE_ACME_${a.ws.id}_PASSWORD`]: 'hunter22' };
		const plan = await upstate(['plan', '-f', file, '--exit-code', '--no-color'], {
			env: { ...a.env, ...secretEnv, ...env }
		});
		expect(plan.code).toBe(3);
		expect(plan.stdout).toContain(`~ monitors.api update (id ${seeded.api.id})`);
		expect(plan.stdout).toContain('name: "API (edited)" → "API"');
		expect(plan.stdout).toContain('retry: 5 → 3');
		expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete.');
		const asJson = await upstate(['--json', 'plan', '-f', file], {
			env: { ...a.env, ...secretEnv, ...env }
		});
		expect(asJson.json<{ changes: unknown[] }>().changes).toEqual([
			{
				action: 'update',
				kind: 'monitors',
				key: 'api',
				id: seeded.api.id,
				fields: [
					{ field: 'name', from: 'API (edited)', to: 'API' },
					{ field: 'retry', from: 5, to: 3 }
				]
			}
		]);
		expect(
			(await upstate(['apply', '-f', file], { env: { ...a.env, ...secretEnv, ...env } })).code
		).toBe(0);
		expect(await call('GET', `/v1/monitors/${seeded.api.id}`)).toMatchObject({
			name: 'API',
			retry: 3
		});
	});

	it('renames by key: a new name is an update of the same resource', async () => {
		const env = { ...a.env, ...secretEnv, [`UPSTATE_PAGE_ACME_${a.ws.id}_PASSWORD`]: 'hunter22' };
		writeFileSync(
			file,
			readFileSync(file, 'utf8').replace('name: Database', 'name: Primary database')
		);
		const r = await upstate(['--json', 'apply', '-f', file], { env });
		expect(r.json()).toMatchObject({ created: 0, updated: 1 });
		const m = await rest(stack.api.url, a.write)('GET', `/v1/monitors/${seeded.db.id}`);
		expect(m.name).toBe('Primary database');
	});

	it('keeps what the file no longer names unless --prune, which deletes it', async () => {
		const env = { ...a.env, ...secretEnv, [`UPSTATE_PAGE_ACME_${a.ws.id}_PASSWORD`]: 'hunter22' };
		const yaml = readFileSync(file, 'utf8');
		const withoutZone = yaml.replace(/\n {2}zone:\n(?: {4}.*\n| {6}.*\n| {8}.*\n)+/, '\n');
		expect(withoutZone).not.toContain('name: Zone');
		writeFileSync(file, withoutZone);
		const keep = await upstate(['plan', '-f', file], { env });
		expect(keep.stdout).toContain('No changes');
		expect(keep.stdout).toContain(
			'1 resource(s) in the workspace are not in the file (kept; --prune deletes them)'
		);
		const plan = await upstate(['plan', '-f', file, '--prune', '--no-color'], { env });
		expect(plan.stdout).toMatch(/- monitors\.zone delete monitor "Zone" \(id \d+\)/);
		const applied = await upstate(['--json', 'apply', '-f', file, '--prune'], { env });
		expect(applied.json()).toMatchObject({ created: 0, updated: 0, deleted: 1 });
		const names = (await upstate(['--json', 'monitors', 'list'], { env }))
			.json<Array<{ name: string }>>()
			.map((m) => m.name);
		expect(names).not.toContain('Zone');
		const lock = JSON.parse(readFileSync(path.join(dir, 'upstate.lock.json'), 'utf8'));
		expect(lock.resources.monitors.zone).toBeUndefined();
	});

	it('refuses a bad file before changing anything, naming file, line and field', async () => {
		const bad = path.join(dir, 'bad.yaml');
		writeFileSync(
			bad,
			'version: 1\nmonitors:\n  web:\n    type: http\n    name: Web\n    periodicity: 1m\n    url: not a url\n'
		);
		const r = await upstate(['apply', '-f', bad], { env: a.env });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`${bad}:7:10 monitors.web.url: must be an http or https URL`);
		expect(r.stderr).toContain('→ fix it and run the command again');
		const broken = path.join(dir, 'broken.yaml');
		writeFileSync(broken, 'version: 1\nmonitors:\n  web: {type: http\n');
		const b = await upstate(['plan', '-f', broken], { env: a.env });
		expect(b.code).toBe(1);
		expect(b.stderr).toMatch(new RegExp(`${broken.replace(/[.]/g, '\\.')}:\\d+:\\d+ `));
		const names = (await upstate(['--json', 'monitors', 'list'], { env: a.env }))
			.json<Array<{ name: string }>>()
			.map((m) => m.name);
		expect(names).not.toContain('Web');
	});

	it("never applies one workspace's lock with another's key, and never touches another's ids", async () => {
		const c = await stack.workspace(LIMITS);
		const env = { ...c.env, ...secretEnv, [`UPSTATE_PAGE_ACME_${a.ws.id}_PASSWORD`]: 'x' };
		const r = await upstate(['plan', '-f', file], { env });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(
			`upstate.lock.json belongs to workspace ${a.ws.slug} (${a.ws.id}), but the key is for ${c.ws.slug} (${c.ws.id})`
		);
		// A lock edited to claim C while holding A's ids: those ids are not C's, so C gets its own.
		const forged = path.join(dir, 'forged.lock.json');
		const lock = JSON.parse(readFileSync(path.join(dir, 'upstate.lock.json'), 'utf8'));
		writeFileSync(forged, JSON.stringify({ ...lock, workspace: { id: c.ws.id, slug: c.ws.slug } }));
		const copy = path.join(dir, 'c.yaml');
		writeFileSync(
			copy,
			readFileSync(file, 'utf8').replace(`slug: acme-${a.ws.id}`, `slug: acme-c-${c.ws.id}`)
		);
		const applied = await upstate(['--json', 'apply', '-f', copy, '--lock', forged], { env });
		expect(applied.json()).toMatchObject({ created: 9, updated: 0, deleted: 0 });
		const aMonitor = await rest(stack.api.url, a.write)('GET', `/v1/monitors/${seeded.api.id}`);
		expect(aMonitor.name).toBe('API');
		expect(JSON.parse(readFileSync(forged, 'utf8')).resources.monitors.api).not.toBe(seeded.api.id);
	});
});
