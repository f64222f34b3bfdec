import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey, TEAM_LIMITS } from '../../../test/factories.ts';
import { createMonitor, getMonitor, listMonitors, removeMonitor, updateMonitor } from './index.ts';
import type { CreateMonitorInput, UpdateMonitorInput } from './schemas.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const http = {
	type: 'http' as const,
	name: 'API',
	periodicity: '1m' as const,
	url: 'https://example.com/health'
};

describe('monitor service', () => {
	it('creates every type with spec defaults and writes an audit row', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const m = await createMonitor({ ctx, input: http });
		expect(m).toMatchObject({
			type: 'http',
			timeout: 45000,
			retry: 3,
			active: false,
			public: false,
			method: 'GET',
			follow_redirects: true,
			status: 'unknown'
		});
		expect(m.regions).toHaveLength(6);
		for (const input of [
			{ type: 'tcp' as const, name: 't', periodicity: '1m' as const, uri: 'db.internal:5432' },
			{
				type: 'dns' as const,
				name: 'd',
				periodicity: '1m' as const,
				uri: 'example.com',
				record_assertions: [{ record: 'A' as const, comparator: 'eq' as const, target: '1.2.3.4' }]
			},
			{ type: 'icmp' as const, name: 'i', periodicity: '1m' as const, uri: '10.0.0.1' },
			{
				type: 'grpc' as const,
				name: 'g',
				periodicity: '1m' as const,
				uri: '[::1]:50051',
				tls: 'plaintext' as const
			}
		]) {
			expect((await createMonitor({ ctx, input })).type).toBe(input.type);
		}
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'monitor', entityId: String(m.id) }
		});
		expect(audit).toHaveLength(1);
		expect(audit[0]).toMatchObject({ action: 'monitor.create', actorType: 'user', before: null });
		expect(JSON.parse(audit[0].changedFields)).toContain('url');
	});

	it('enforces every bound with the field named', async () => {
		const ctx = ctxFor(db, await createWorkspace(db));
		expect(await codeOf(createMonitor({ ctx, input: { ...http, name: 'x'.repeat(257) } }))).toMatch(
			/^VALIDATION: name:/
		);
		expect(await codeOf(createMonitor({ ctx, input: { ...http, timeout: 120001 } }))).toMatch(
			/^VALIDATION: timeout:/
		);
		expect(await codeOf(createMonitor({ ctx, input: { ...http, retry: 11 } }))).toMatch(
			/^VALIDATION: retry:/
		);
		expect(
			await codeOf(
				createMonitor({ ctx, input: { ...http, url: `https://e.com/${'a'.repeat(2048)}` } })
			)
		).toMatch(/^VALIDATION: url:/);
		expect(
			await codeOf(
				createMonitor({
					ctx,
					input: {
						...http,
						headers: Array.from({ length: 21 }, (_, i) => ({ key: `h${i}`, value: 'v' }))
					}
				})
			)
		).toMatch(/^VALIDATION: headers:/);
		expect(
			await codeOf(
				createMonitor({
					ctx,
					input: { ...http, status_code_assertions: [{ target: 600, comparator: 'eq' }] }
				})
			)
		).toMatch(/^VALIDATION: status_code_assertions.0.target:/);
		expect(
			await codeOf(
				createMonitor({
					ctx,
					input: { type: 'grpc', name: 'g', periodicity: '1m', uri: 'grpc://h:1' }
				})
			)
		).toMatch(/^VALIDATION: uri: no scheme/);
		expect(
			await codeOf(
				createMonitor({ ctx, input: { type: 'grpc', name: 'g', periodicity: '1m', uri: 'host' } })
			)
		).toMatch(/^VALIDATION: uri:/);
		expect(
			await codeOf(
				createMonitor({
					ctx,
					input: { type: 'icmp', name: 'i', periodicity: '1m', uri: 'host:80' }
				})
			)
		).toMatch(/^VALIDATION: uri:/);
	});

	it('refuses header names, header values and gRPC metadata the probe cannot send', async () => {
		const ctx = ctxFor(db, await createWorkspace(db));
		const grpc = { type: 'grpc' as const, name: 'g', periodicity: '1m' as const, uri: 'g:50051' };
		const rejects = async (input: Parameters<typeof createMonitor>[0]['input'], re: RegExp) =>
			expect(await codeOf(createMonitor({ ctx, input }))).toMatch(re);
		await rejects(
			{ ...grpc, metadata: [{ key: 'Authorization', value: 'Bearer t' }] },
			/^VALIDATION: metadata.0.key: must be a lowercase gRPC metadata key/
		);
		await rejects(
			{ ...grpc, metadata: [{ key: 'trace-bin', value: 'AAEC' }] },
			/^VALIDATION: metadata.0.key: binary metadata \("-bin" keys\) is not supported/
		);
		await rejects(
			{ ...grpc, metadata: [{ key: 'x-token', value: 'a\r\nb' }] },
			/^VALIDATION: metadata.0.value: must be printable ASCII/
		);
		await rejects(
			{ ...http, headers: [{ key: 'X Token', value: 'v' }] },
			/^VALIDATION: headers.0.key: must be a header name/
		);
		await rejects(
			{ ...http, headers: [{ key: 'x-token', value: 'v\r\nInjected: 1' }] },
			/^VALIDATION: headers.0.value: must not contain line breaks/
		);
		await rejects(
			{
				...http,
				open_telemetry: {
					endpoint: 'https://otel.test/v1/metrics',
					headers: [{ key: 'auth:x', value: 'v' }]
				}
			},
			/^VALIDATION: open_telemetry.headers.0.key: must be a header name/
		);
		const ok = await createMonitor({
			ctx,
			input: { ...grpc, metadata: [{ key: 'authorization', value: 'Bearer t' }] }
		});
		expect(ok.metadata).toEqual([{ key: 'authorization', value: 'Bearer t' }]);
		expect(
			await codeOf(
				updateMonitor({
					ctx,
					input: { monitorId: ok.id, metadata: [{ key: 'X-Trace', value: '1' }] }
				})
			)
		).toMatch(/^VALIDATION: metadata.0.key: must be a lowercase gRPC metadata key/);
		const web = await createMonitor({
			ctx,
			input: { ...http, headers: [{ key: 'X-Api-Key', value: 'k é' }] }
		});
		expect(web.headers).toEqual([{ key: 'X-Api-Key', value: 'k é' }]);
	});

	it('falls back to free-plan limits for missing keys', async () => {
		const ctx = ctxFor(db, await createWorkspace(db, { plan: 'free', limits: {} }));
		expect(await codeOf(createMonitor({ ctx, input: http }))).toMatch(
			/^LIMIT_EXCEEDED: periodicity/
		);
		const m = await createMonitor({ ctx, input: { ...http, periodicity: '10m' } });
		expect(m.regions).toHaveLength(4);
		expect(await codeOf(createMonitor({ ctx, input: { ...http, periodicity: '10m' } }))).toMatch(
			/^LIMIT_EXCEEDED: limit 'monitors'/
		);
	});

	it('rejects read-only key', async () => {
		const ws = await createWorkspace(db);
		expect(await codeOf(createMonitor({ ctx: ctxFor(db, ws, readKey()), input: http }))).toMatch(
			/^FORBIDDEN/
		);
		expect(await db.monitor.count({ where: { workspaceId: ws.id } })).toBe(0);
	});

	it('returns NOT_FOUND for another workspace id', async () => {
		const mine = ctxFor(db, await createWorkspace(db));
		const theirs = ctxFor(db, await createWorkspace(db));
		const m = await createMonitor({ ctx: theirs, input: http });
		expect(await codeOf(getMonitor({ ctx: mine, input: { monitorId: m.id } }))).toBe(
			`NOT_FOUND: monitor ${m.id} not found`
		);
		expect(
			await codeOf(updateMonitor({ ctx: mine, input: { monitorId: m.id, name: 'x' } }))
		).toMatch(/^NOT_FOUND/);
		expect(await codeOf(removeMonitor({ ctx: mine, input: { monitorId: m.id } }))).toMatch(
			/^NOT_FOUND/
		);
		expect((await listMonitors({ ctx: mine })).data).toHaveLength(0);
	});

	it("refuses a misspelt field or another type's field by name instead of dropping it", async () => {
		const ctx = ctxFor(db, await createWorkspace(db));
		const typo = { ...http, periodicty: '5m' } as unknown as CreateMonitorInput;
		expect(await codeOf(createMonitor({ ctx, input: typo }))).toMatch(/^VALIDATION: .*periodicty/);
		const tcpWithUrl = {
			type: 'tcp',
			name: 'db',
			periodicity: '1m',
			uri: 'db.internal:5432',
			url: 'https://x.test'
		} as unknown as CreateMonitorInput;
		expect(await codeOf(createMonitor({ ctx, input: tcpWithUrl }))).toMatch(/^VALIDATION: .*url/);
		expect(await db.monitor.count({ where: { workspaceId: ctx.workspace.id } })).toBe(0);
	});

	it('after a plan downgrade, an edit is held only to the rules it moves towards', async () => {
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'multi-region': true } });
		const m = await createMonitor({
			ctx: ctxFor(db, ws),
			input: {
				...http,
				periodicity: '30s',
				regions: ['a-ams', 'a-fra', 'a-iad'],
				open_telemetry: { endpoint: 'https://otel.test/v1/metrics', headers: [] }
			}
		});
		const free = {
			...TEAM_LIMITS,
			periodicity: ['10m', '30m', '1h'],
			regions: ['ams', 'fra', 'iad'],
			'multi-region': false,
			otel: false
		};
		const ctx = ctxFor(
			db,
			await db.workspace.update({ where: { id: ws.id }, data: { limits: JSON.stringify(free) } })
		);
		const edit = (input: Omit<UpdateMonitorInput, 'monitorId'>) =>
			updateMonitor({ ctx, input: { monitorId: m.id, ...input } });
		// Renaming, or moving towards the plan, keeps what the old plan allowed.
		expect((await edit({ name: 'Renamed' })).name).toBe('Renamed');
		expect((await edit({ regions: ['a-ams', 'a-fra'] })).regions).toEqual(['a-ams', 'a-fra']);
		// Moving further from it is refused, each by its rule.
		expect(await codeOf(edit({ periodicity: '1m' }))).toMatch(/^LIMIT_EXCEEDED: periodicity '1m'/);
		expect(await codeOf(edit({ regions: ['a-ams', 'a-fra', 'a-iad'] }))).toMatch(
			/^LIMIT_EXCEEDED: your plan allows at most 1 regions/
		);
		expect((await edit({ periodicity: '10m' })).periodicity).toBe('10m');
		expect(await codeOf(edit({ periodicity: '30s' }))).toMatch(/^LIMIT_EXCEEDED: periodicity/);
	});

	it('leaves nothing behind on invalid input', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const m = await createMonitor({ ctx, input: http });
		expect(
			await codeOf(updateMonitor({ ctx, input: { monitorId: m.id, name: 'ok', timeout: -1 } }))
		).toMatch(/^VALIDATION: timeout/);
		expect(await codeOf(updateMonitor({ ctx, input: { monitorId: m.id, uri: 'x:1' } }))).toMatch(
			/^VALIDATION: uri: not a field of http/
		);
		expect((await getMonitor({ ctx, input: { monitorId: m.id } })).name).toBe('API');
		expect(await db.auditLog.count({ where: { workspaceId: ws.id } })).toBe(1);
	});

	it('updates, lists newest first and deletes with audit before/after', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const a = await createMonitor({ ctx, input: http });
		const b = await createMonitor({ ctx, input: { ...http, name: 'B' } });
		const updated = await updateMonitor({
			ctx,
			input: { monitorId: a.id, name: 'A2', active: true }
		});
		expect(updated).toMatchObject({ name: 'A2', active: true, url: http.url });
		expect((await listMonitors({ ctx })).data.map((m) => m.id)).toEqual([b.id, a.id]);
		const entry = await db.auditLog.findFirstOrThrow({
			where: { workspaceId: ws.id, action: 'monitor.update' }
		});
		expect(JSON.parse(entry.changedFields)).toEqual(['active', 'name']);
		expect(JSON.parse(entry.before ?? '{}').name).toBe('API');
		await removeMonitor({ ctx, input: { monitorId: a.id } });
		expect(await codeOf(getMonitor({ ctx, input: { monitorId: a.id } }))).toMatch(/^NOT_FOUND/);
	});
});
