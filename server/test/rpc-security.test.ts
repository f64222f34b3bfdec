import { toJson } from '@bufbuild/protobuf';
import { StructSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import * as generated from '@upstate/proto';
import {
	ApiKeyService,
	MonitorService,
	PrivateLocationService,
	StatusPageService,
	StatusReportService
} from '@upstate/proto';
import type { DescService } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { transport } from './rpc.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createApiKey } from '../src/domain/api-key/index.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createPrivateLocation } from '../src/domain/private-location/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { createUser, createWorkspace, ctxFor } from './factories.ts';
import { client, type Protocol } from './rpc.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// /rpc holds the same lines as REST: the key decides the workspace and the scope, another
// workspace's ids do not exist, and bad input is refused by field with nothing written.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let writeKey: string;
let readKey: string;
let otherKey: string;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db));
	ws = await createWorkspace(db);
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
	otherKey = await issueKey(db, await createWorkspace(db), 'write');
});
afterAll(() => api.close());

const failure = (p: Promise<unknown>) =>
	p.then(
		() => expect.unreachable('the call succeeded'),
		(err: unknown) => ConnectError.from(err)
	);
const http = { type: 'http', name: 'API', periodicity: '1m', url: 'https://example.com' } as const;
const PROTOCOLS: Protocol[] = ['connect-json', 'grpc'];

describe('/rpc authentication, scope and tenancy', () => {
	it.each(PROTOCOLS)('%s: refuses calls without a valid x-service-key', async (protocol) => {
		const none = await failure(
			client(MonitorService, api.url, undefined, protocol).listMonitors({})
		);
		expect(none).toMatchObject({
			code: Code.Unauthenticated,
			rawMessage: 'missing x-service-key header'
		});
		const bad = await failure(
			client(MonitorService, api.url, 'us_not-a-real-key', protocol).listMonitors({})
		);
		expect(bad).toMatchObject({
			code: Code.Unauthenticated,
			rawMessage: 'invalid or revoked API key'
		});
	});

	it.each(PROTOCOLS)('%s: refuses writes with a read key and writes nothing', async (protocol) => {
		const before = await db.monitor.count({ where: { workspaceId: ws.id } });
		const denied = await failure(
			client(MonitorService, api.url, readKey, protocol).createMonitor(http)
		);
		expect(denied).toMatchObject({
			code: Code.PermissionDenied,
			rawMessage: 'this credential is read-only: a write-scoped key is required'
		});
		expect(denied.metadata.get('upstate-error-code')).toBe('FORBIDDEN');
		expect(await db.monitor.count({ where: { workspaceId: ws.id } })).toBe(before);
	});

	it("answers NOT_FOUND for another workspace's ids, and leaves them untouched", async () => {
		const ctx = ctxFor(db, ws);
		const monitor = await createMonitor({ ctx, input: http });
		const page = await createStatusPage({ ctx, input: { title: 'Mine', slug: `mine-${ws.id}` } });
		const monitors = client(MonitorService, api.url, otherKey);
		for (const call of [
			monitors.getMonitor({ monitorId: monitor.id }),
			monitors.updateMonitor({ monitorId: monitor.id, name: 'stolen' }),
			monitors.deleteMonitor({ monitorId: monitor.id }),
			monitors.getMonitorStatus({ monitorId: monitor.id })
		])
			expect(await failure(call)).toMatchObject({
				code: Code.NotFound,
				rawMessage: `monitor ${monitor.id} not found`
			});
		const pages = client(StatusPageService, api.url, otherKey);
		expect(await failure(pages.deleteStatusPage({ pageId: page.id }))).toMatchObject({
			code: Code.NotFound
		});
		expect(await db.monitor.findUnique({ where: { id: monitor.id } })).toMatchObject({
			name: 'API'
		});
		expect(await db.statusPage.findUnique({ where: { id: page.id } })).not.toBeNull();
	});

	it("metadata_map (the Terraform provider's clear-able map): another workspace's location is NOT_FOUND, a read key PERMISSION_DENIED", async () => {
		const mine = await createPrivateLocation({
			ctx: ctxFor(db, ws),
			input: { name: 'Rack', metadata: { rack: '4' } }
		});
		const row = () => db.privateLocation.findUniqueOrThrow({ where: { id: mine.id } });
		const before = await row();
		const update = { privateLocationId: mine.id, metadataMap: { values: {} }, name: 'stolen' };
		for (const protocol of PROTOCOLS) {
			const other = client(PrivateLocationService, api.url, otherKey, protocol);
			expect(await failure(other.updatePrivateLocation(update))).toMatchObject({
				code: Code.NotFound
			});
			const read = client(PrivateLocationService, api.url, readKey, protocol);
			expect(await failure(read.updatePrivateLocation(update))).toMatchObject({
				code: Code.PermissionDenied
			});
		}
		expect(await row()).toEqual(before);
		expect(JSON.parse((await row()).metadata)).toEqual({ rack: '4' });
	});

	it('audits /rpc writes with the key as actor', async () => {
		const made = await client(MonitorService, api.url, writeKey).createMonitor(http);
		const entry = await db.auditLog.findFirstOrThrow({
			where: { workspaceId: ws.id, entityType: 'monitor', entityId: String(made.id) }
		});
		expect(entry).toMatchObject({ actorType: 'apiKey', action: 'monitor.create' });
		expect(entry.actorId).toMatch(/^key_\d+$/);
	});

	// A key is no way around a role: it acts with its creator's current role (REST alike).
	it.each(PROTOCOLS)(
		'%s: a key stops administering when its creator is demoted, and keeps working',
		async (protocol) => {
			const team = await createWorkspace(db);
			const admin = await createUser(db);
			await db.membership.create({
				data: { workspaceId: team.id, userId: admin.id, role: 'admin' }
			});
			const key = (
				await createApiKey({
					ctx: ctxFor(db, team, { type: 'user', userId: admin.id, role: 'admin' }),
					input: { name: 'ci', scope: 'write' }
				})
			).key;
			const keys = client(ApiKeyService, api.url, key, protocol);
			expect((await keys.createApiKey({ name: 'made by a key', scope: 'read' })).scope).toBe(
				'read'
			);
			await db.membership.update({
				where: { workspaceId_userId: { workspaceId: team.id, userId: admin.id } },
				data: { role: 'member' }
			});
			const refused = await failure(keys.createApiKey({ name: 'after demotion', scope: 'write' }));
			expect(refused).toMatchObject({
				code: Code.PermissionDenied,
				rawMessage:
					'this action needs the role owner or admin; an API key acts with the role of the member who created it (member)'
			});
			expect(
				await db.apiKey.count({ where: { workspaceId: team.id, name: 'after demotion' } })
			).toBe(0);
			await client(MonitorService, api.url, key, protocol).createMonitor(http);
			expect(await db.monitor.count({ where: { workspaceId: team.id } })).toBe(1);
		}
	);
});

describe('/rpc input validation', () => {
	it.each(PROTOCOLS)(
		'%s: INVALID_ARGUMENT names the field, nothing is written',
		async (protocol) => {
			const before = await db.monitor.count({ where: { workspaceId: ws.id } });
			const err = await failure(
				client(MonitorService, api.url, writeKey, protocol).createMonitor({
					...http,
					url: 'ftp://example.com'
				})
			);
			expect(err).toMatchObject({
				code: Code.InvalidArgument,
				rawMessage: 'url: must be an http or https URL'
			});
			expect(toJson(StructSchema, err.findDetails(StructSchema)[0])).toEqual({
				code: 'VALIDATION',
				issues: [{ path: 'url', message: 'must be an http or https URL' }]
			});
			expect(await db.monitor.count({ where: { workspaceId: ws.id } })).toBe(before);
		}
	);

	it('a publishing call without notify is refused on that field', async () => {
		const err = await failure(
			client(StatusReportService, api.url, writeKey).createStatusReport({
				pageId: 1,
				title: 't',
				status: 'investigating',
				message: 'm'
			})
		);
		expect(err.code).toBe(Code.InvalidArgument);
		expect(err.rawMessage).toMatch(/^notify: /);
	});

	it('refuses a message over 1 MiB before reading it', async () => {
		const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), scope: 'read' });
		const res = await fetch(`${api.url}/rpc/upstate.v1.ApiKeyService/CreateApiKey`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-service-key': writeKey },
			body
		});
		expect(await res.json()).toMatchObject({
			code: 'resource_exhausted',
			message: expect.stringMatching(/larger than configured readMaxBytes 1048576/)
		});
		const big = await failure(
			client(MonitorService, api.url, writeKey, 'grpc').createMonitor({
				...http,
				name: 'x'.repeat(2 * 1024 * 1024)
			} as never)
		);
		expect(big.code).toBe(Code.ResourceExhausted);
		expect(await db.apiKey.count({ where: { name: { startsWith: 'xxx' } } })).toBe(0);
	});

	it('checks the key before reading the body: without one, whatever was sent is UNAUTHENTICATED', async () => {
		const bodies: Array<[string, string | Uint8Array<ArrayBuffer>]> = [
			['application/json', '{not json'],
			['application/json', JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })],
			['application/proto', new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff])]
		];
		for (const [type, body] of bodies) {
			const res = await fetch(`${api.url}/rpc/upstate.v1.ApiKeyService/CreateApiKey`, {
				method: 'POST',
				headers: { 'content-type': type, 'x-service-key': 'us_not-a-real-key' },
				body
			});
			expect(res.status).toBe(401);
			expect(res.headers.get('content-type')).toBe('application/json');
			expect(await res.json()).toMatchObject({
				code: 'unauthenticated',
				message: 'invalid or revoked API key'
			});
		}
	});

	it('refuses a field the message does not have (Connect JSON sent by hand)', async () => {
		const res = await fetch(`${api.url}/rpc/upstate.v1.MonitorService/CreateMonitor`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-service-key': writeKey },
			body: JSON.stringify({ ...http, periodicty: '1h' })
		});
		expect(res.status).toBe(400);
		expect(await res.json()).toMatchObject({
			code: 'invalid_argument',
			message: expect.stringContaining('periodicty')
		});
	});

	it('Connect JSON keys are the REST keys', async () => {
		const res = await fetch(`${api.url}/rpc/upstate.v1.MonitorService/CreateMonitor`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-service-key': writeKey },
			body: JSON.stringify({ ...http, degraded_at: 300, follow_redirects: false })
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toMatchObject({
			type: 'http',
			degraded_at: 300,
			follow_redirects: false,
			created_at: expect.any(String)
		});
	});
});

describe('/rpc answers every method', () => {
	it('an empty request to any RPC is answered or refused with a client code, never INTERNAL', async () => {
		const services = (Object.values(generated) as unknown[]).filter(
			(v): v is DescService => (v as Partial<DescService>)?.kind === 'service'
		);
		expect(services).toHaveLength(16);
		const outcomes: string[] = [];
		for (const service of services) {
			const rpc = createClient(service, transport(api.url, 'connect-json', writeKey)) as Record<
				string,
				(req: object) => Promise<unknown>
			>;
			for (const method of service.methods) {
				const code = await rpc[method.localName]({}).then(
					() => 'ok',
					(err: unknown) => Code[ConnectError.from(err).code]
				);
				outcomes.push(`${service.name}/${method.name} ${code}`);
			}
		}
		expect(
			outcomes.filter((o) => !/ (ok|InvalidArgument|NotFound|ResourceExhausted)$/.test(o))
		).toEqual([]);
		expect(outcomes).toContain('WorkspaceService/Whoami ok');
		expect(outcomes).toContain('MonitorService/CreateMonitor InvalidArgument');
	});
});
