import {
	ApiKeyService,
	AuditLogService,
	ComponentGroupService,
	IncidentService,
	InvitationService,
	MaintenanceService,
	MemberService,
	MonitorService,
	NotificationChannelService,
	PageComponentService,
	PrivateLocationService,
	ResponseLogService,
	StatusPageService,
	StatusReportService,
	SubscriberService,
	WorkspaceService
} from '@upstate/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { recordStatusChange } from '../src/domain/incident/index.ts';
import { ALERTING_LIMITS, systemCtx } from './alerting.ts';
import { createTestDb } from './db.ts';
import { startFakeVendor } from './fake-vendor.ts';
import { createUser, createWorkspace, ctxFor, storedResult } from './factories.ts';
import { client } from './rpc.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// Every resource kind of REST v1 over /rpc, through the generated clients (Connect JSON).
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let upstate: ReturnType<typeof createTestUpstate>;
let vendor: Awaited<ReturnType<typeof startFakeVendor>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let writeKey: string;
let readKey: string;

const LIMITS = { ...ALERTING_LIMITS, 'status-subscribers': true, 'audit-log': true };

beforeAll(async () => {
	({ db } = await createTestDb());
	vendor = await startFakeVendor(() => ({ status: 204 }));
	upstate = createTestUpstate(db, { NOTIFY_ALLOW_PRIVATE_TARGETS: 'true' });
	api = await startApi(upstate);
	ws = await createWorkspace(db, { limits: LIMITS });
	writeKey = await issueKey(db, ws, 'write');
	readKey = await issueKey(db, ws, 'read');
});
afterAll(async () => {
	await api.close();
	await vendor.close();
});

const rpc = <S extends Parameters<typeof client>[0]>(service: S, key = writeKey) =>
	client(service, api.url, key);

describe('/rpc resources', () => {
	it('creates monitors of all five types with their blocks, and reads their status', async () => {
		const monitors = rpc(MonitorService);
		const common = { periodicity: '1m' };
		const made = await Promise.all([
			monitors.createMonitor({
				...common,
				type: 'http',
				name: 'web',
				url: 'https://example.com',
				method: 'POST',
				body: '{}',
				headers: [{ key: 'x-a', value: '1' }],
				statusCodeAssertions: [{ target: 200, comparator: 'eq' }],
				bodyAssertions: [{ target: 'ok', comparator: 'contains' }],
				headerAssertions: [{ key: 'content-type', target: 'json', comparator: 'contains' }],
				openTelemetry: { value: { endpoint: 'https://otel.example.com/v1/metrics' } }
			}),
			monitors.createMonitor({ ...common, type: 'tcp', name: 'db', uri: 'db.example.com:5432' }),
			monitors.createMonitor({
				...common,
				type: 'dns',
				name: 'dns',
				uri: 'example.com',
				recordAssertions: [{ record: 'A', target: '93.184.216.34', comparator: 'eq' }]
			}),
			monitors.createMonitor({ ...common, type: 'icmp', name: 'ping', uri: '192.0.2.1' }),
			monitors.createMonitor({
				...common,
				type: 'grpc',
				name: 'rpc',
				uri: 'grpc.example.com:443',
				service: 'svc',
				tls: 'plaintext',
				metadata: [{ key: 'x-tenant', value: 'a' }]
			})
		]);
		expect(made.map((m) => m.type)).toEqual(['http', 'tcp', 'dns', 'icmp', 'grpc']);
		expect(made[0]).toMatchObject({
			method: 'POST',
			statusCodeAssertions: [{ target: 200, comparator: 'eq' }],
			openTelemetry: { endpoint: 'https://otel.example.com/v1/metrics' }
		});
		expect(made[2].recordAssertions).toEqual([
			expect.objectContaining({ record: 'A', comparator: 'eq' })
		]);
		expect(made[4]).toMatchObject({
			service: 'svc',
			tls: 'plaintext',
			uri: 'grpc.example.com:443'
		});
		expect(made[4].url).toBeUndefined();
		const read = rpc(MonitorService, readKey);
		// Not checked yet: no location reports a health (spec 4.1: active, degraded or error only).
		expect(await read.getMonitorStatus({ monitorId: made[1].id })).toMatchObject({
			monitorId: made[1].id,
			regions: []
		});
		expect(await read.getMonitorSummary({ monitorId: made[1].id })).toMatchObject({
			window: '1d',
			success: 0
		});
		const otel = await monitors.updateMonitor({ monitorId: made[0].id, openTelemetry: {} });
		expect(otel.openTelemetry).toBeUndefined();
	});

	it('runs a status page with groups, components, reports, maintenance and subscribers', async () => {
		const monitor = await rpc(MonitorService).createMonitor({
			type: 'http',
			name: 'api',
			periodicity: '1m',
			url: 'https://api.example.com'
		});
		const pages = rpc(StatusPageService);
		const page = await pages.createStatusPage({ title: 'Acme', slug: `acme-${ws.id}` });
		expect(page).toMatchObject({ title: 'Acme', accessType: 'public' });
		expect(page.homepageUrl).toBeUndefined();
		expect(
			await pages.updateStatusPage({ pageId: page.id, description: 'All systems' })
		).toMatchObject({ description: 'All systems' });
		expect(
			(await rpc(StatusPageService, readKey).listStatusPages({})).data.map((p) => p.id)
		).toContain(page.id);

		const groups = rpc(ComponentGroupService);
		const group = await groups.createComponentGroup({ pageId: page.id, name: 'Core' });
		await groups.updateComponentGroup({ groupId: group.id, name: 'Core services' });
		expect((await groups.listComponentGroups({ pageId: page.id })).data).toEqual([
			expect.objectContaining({ name: 'Core services' })
		]);

		const components = rpc(PageComponentService);
		const component = await components.createPageComponent({
			pageId: page.id,
			type: 'monitor',
			monitorId: monitor.id,
			name: 'API',
			groupId: group.id
		});
		expect(component).toMatchObject({ type: 'monitor', monitorId: monitor.id, groupId: group.id });
		const moved = await components.updatePageComponent({
			componentId: component.id,
			groupId: {}
		});
		expect(moved.groupId).toBeUndefined();
		expect((await components.listPageComponents({ pageId: page.id })).data).toHaveLength(1);

		const reports = rpc(StatusReportService);
		const report = await reports.createStatusReport({
			pageId: page.id,
			title: 'API errors',
			status: 'investigating',
			message: 'Looking',
			pageComponentIds: [component.id],
			notify: false
		});
		expect(report).toMatchObject({ status: 'investigating', notified: false });
		await reports.addStatusReportUpdate({
			reportId: report.id,
			status: 'monitoring',
			message: 'Fixed',
			impacts: [{ componentId: component.id, impact: 'degraded_performance' }],
			notify: false
		});
		await reports.updateStatusReport({ reportId: report.id, title: 'API 5xx' });
		const resolved = await reports.resolveStatusReport({
			reportId: report.id,
			message: 'Done',
			notify: false
		});
		expect(resolved).toMatchObject({ status: 'resolved', title: 'API 5xx' });
		const got = await reports.getStatusReport({ reportId: report.id });
		expect(got.updates.map((u) => u.status)).toEqual(['resolved', 'monitoring', 'investigating']);
		expect((await reports.listStatusReports({ filter: 'all' })).data).toHaveLength(1);

		const windows = rpc(MaintenanceService);
		const from = new Date(Date.now() + 3600_000).toISOString();
		const to = new Date(Date.now() + 7200_000).toISOString();
		const maintenance = await windows.createMaintenance({
			pageId: page.id,
			title: 'Upgrade',
			message: 'DB upgrade',
			from,
			to,
			pageComponentIds: [component.id],
			notify: false
		});
		expect(
			await windows.updateMaintenance({ maintenanceId: maintenance.id, title: 'Upgrade DB' })
		).toMatchObject({ title: 'Upgrade DB', pageComponentIds: [component.id] });
		expect((await windows.listMaintenances({})).data.map((m) => m.id)).toContain(maintenance.id);
		expect(await windows.getMaintenance({ maintenanceId: maintenance.id })).toMatchObject({ from });
		await windows.deleteMaintenance({ maintenanceId: maintenance.id });

		const subscribers = rpc(SubscriberService);
		const hook = await subscribers.createWebhookSubscriber({
			pageId: page.id,
			url: 'https://hooks.example.com/status',
			componentIds: [component.id]
		});
		expect(hook).toMatchObject({ type: 'webhook', status: 'confirmed' });
		expect(hook.signingSecret).toMatch(/^whsec_/);
		expect((await subscribers.listSubscribers({ pageId: page.id })).data).toHaveLength(1);
		await subscribers.deleteSubscriber({ pageId: page.id, subscriberId: hook.id });

		await components.deletePageComponent({ componentId: component.id });
		await groups.deleteComponentGroup({ groupId: group.id });
		expect(await pages.deleteStatusPage({ pageId: page.id })).toMatchObject({ deleted: true });
	});

	it('manages notification channels and sends a test to a webhook', async () => {
		const channels = rpc(NotificationChannelService);
		const channel = await channels.createNotificationChannel({
			name: 'Hook',
			providerType: 'webhook',
			webhook: {
				endpoint: `${vendor.url}/hook`,
				headers: { values: [{ key: 'x-team', value: 'ops' }] }
			}
		});
		expect(channel.signingSecret).toMatch(/^whsec_/);
		expect(
			await channels.updateNotificationChannel({ notificationChannelId: channel.id, name: 'Ops' })
		).toMatchObject({ name: 'Ops', providerType: 'webhook' });
		vendor.requests.length = 0;
		const sent = await channels.sendTestNotification({ notificationChannelId: channel.id });
		expect(sent).toMatchObject({ ok: true, status: 204 });
		expect(vendor.requests.map((r) => [r.method, r.path, r.headers['x-team']])).toEqual([
			['POST', '/hook', 'ops']
		]);
		const deliveries = await channels.listNotificationDeliveries({
			notificationChannelId: channel.id
		});
		expect(deliveries).toBeDefined();
		expect((await channels.listNotificationChannels({})).data.map((c) => c.id)).toContain(
			channel.id
		);
		await channels.deleteNotificationChannel({ notificationChannelId: channel.id });
	});

	it('manages private locations, API keys, incidents, the audit log and says who is calling', async () => {
		const locations = rpc(PrivateLocationService);
		const location = await locations.createPrivateLocation({
			name: 'Basement',
			metadata: { rack: '4' }
		});
		expect(location.token).toBeTruthy();
		expect(location.metadata).toEqual({ rack: '4' });
		const got = await locations.getPrivateLocation({ privateLocationId: location.id });
		expect(got).toMatchObject({ name: 'Basement', status: 'unknown' });
		expect(
			await locations.updatePrivateLocation({ privateLocationId: location.id, name: 'Attic' })
		).toMatchObject({ name: 'Attic', metadata: { rack: '4' } });
		// The plain map only sets; its StringMap twin can also clear (an empty map is not sent).
		expect(
			await locations.updatePrivateLocation({ privateLocationId: location.id, metadata: {} })
		).toMatchObject({ metadata: { rack: '4' } });
		expect(
			await locations.updatePrivateLocation({
				privateLocationId: location.id,
				metadataMap: { values: {} }
			})
		).toMatchObject({ metadata: {} });
		expect((await locations.listPrivateLocations({})).data.map((l) => l.id)).toContain(location.id);
		await locations.deletePrivateLocation({ privateLocationId: location.id });

		const keys = rpc(ApiKeyService);
		const key = await keys.createApiKey({ name: 'ci', scope: 'read' });
		expect(key.key).toBeTruthy();
		expect((await keys.listApiKeys({})).data.map((k) => k.id)).toContain(key.id);
		expect(await keys.revokeApiKey({ keyId: key.id })).toMatchObject({ id: key.id });

		const monitor = await rpc(MonitorService).createMonitor({
			type: 'http',
			name: 'flaky',
			periodicity: '1m',
			url: 'https://flaky.example.com'
		});
		const { incidentId } = await recordStatusChange({
			ctx: systemCtx(ctxFor(db, ws)),
			input: {
				monitorId: monitor.id,
				from: 'active',
				to: 'error',
				error: 'HTTP 503',
				at: new Date().toISOString()
			},
			dashboardUrl: 'http://dash.test'
		});
		const incidents = rpc(IncidentService);
		expect((await incidents.listIncidents({ filter: 'open' })).data.map((i) => i.id)).toEqual([
			incidentId
		]);
		expect(await incidents.acknowledgeIncident({ incidentId: incidentId ?? 0 })).toMatchObject({
			status: 'acknowledged'
		});
		expect(await incidents.resolveIncident({ incidentId: incidentId ?? 0 })).toMatchObject({
			status: 'resolved'
		});
		expect(await incidents.getIncident({ incidentId: incidentId ?? 0 })).toMatchObject({
			error: 'HTTP 503'
		});

		const audit = rpc(AuditLogService, readKey);
		const entries = await audit.listAuditLogs({
			entityType: 'monitor',
			entityId: String(monitor.id)
		});
		expect(entries.data).toEqual([
			expect.objectContaining({ action: 'monitor.create', actorType: 'apiKey' })
		]);
		expect(await audit.getAuditLog({ auditLogId: entries.data[0].id })).toMatchObject({
			action: 'monitor.create'
		});

		const me = await rpc(WorkspaceService, readKey).whoami({});
		expect(me).toMatchObject({
			workspace: { id: ws.id, slug: ws.slug },
			credential: { type: 'apiKey', scope: 'read' }
		});
		expect(me.credential?.id).toMatch(/^key_\d+$/);
		// The same procedure is REST's GET /v1/whoami, with the same keys.
		const rest = await fetch(`${api.url}/v1/whoami`, { headers: { 'x-service-key': readKey } });
		expect(await rest.json()).toEqual({
			workspace: { id: ws.id, name: ws.name, slug: ws.slug, plan: ws.plan },
			credential: { type: 'apiKey', id: me.credential?.id, scope: 'read' }
		});
		expect(await rpc(WorkspaceService, readKey).getWorkspace({})).toMatchObject({
			id: ws.id,
			limits: expect.objectContaining({ 'audit-log': true })
		});
	});

	it('reads check results (response logs, latency) and manages members and invitations', async () => {
		const monitor = await rpc(MonitorService).createMonitor({
			type: 'http',
			name: 'logged',
			periodicity: '1m',
			url: 'https://logged.example.com'
		});
		await upstate.analytics.insertResults([
			storedResult({
				workspaceId: ws.id,
				monitorId: monitor.id,
				startedAt: Date.now() - 60_000,
				latency: 42,
				timing: { dns: 1, connect: 2, tls: 3, ttfb: 30, transfer: 6 },
				headers: { 'content-type': 'text/html' }
			})
		]);
		const logs = rpc(ResponseLogService, readKey);
		const list = await logs.listResponseLogs({ monitorId: monitor.id });
		expect(list.data).toEqual([expect.objectContaining({ latency: 42, statusCode: 200 })]);
		const log = await logs.getResponseLog({ logId: list.data[0].id });
		expect(log).toMatchObject({ latency: 42, timing: expect.objectContaining({ ttfb: 30 }) });
		const latency = await rpc(MonitorService, readKey).getMonitorLatency({ monitorId: monitor.id });
		expect(latency.window).toBe('1d');

		const invitations = rpc(InvitationService);
		const invitation = await invitations.createInvitation({
			email: 'new@example.test',
			role: 'member'
		});
		expect((await invitations.listInvitations({})).data.map((i) => i.email)).toContain(
			'new@example.test'
		);
		await invitations.revokeInvitation({ invitationId: invitation.id });
		const user = await createUser(db);
		await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: 'admin' } });
		expect((await rpc(MemberService, readKey).listMembers({})).data).toEqual([
			expect.objectContaining({ role: 'owner' }),
			expect.objectContaining({ email: user.email, role: 'admin' })
		]);
	});
});
