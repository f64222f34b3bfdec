import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import {
	createNotificationChannel,
	updateNotificationChannel
} from '../src/domain/notification-channel/index.ts';
import { testVault } from './alerting.ts';
import { createTestDb } from './db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from './factories.ts';
import { createTestUpstate, errorBody, issueKey, startApi } from './upstate.ts';

// A webhook / ntfy / chat target on a private address is refused at save by the rule the send
// uses (notify/ssrf.ts), in plain words naming the setting that allows it.
let db: Db;
let api: Awaited<ReturnType<typeof startApi>>;
let key: string;
let ws: Awaited<ReturnType<typeof createWorkspace>>;

const ALLOW = 'An operator can allow private targets with NOTIFY_ALLOW_PRIVATE_TARGETS=true';
const refused = (host: string, address: string) =>
	`${host} is a private, loopback or link-local address (${address}): Upstate does not send there. ${ALLOW}`;

beforeAll(async () => {
	({ db } = await createTestDb());
	api = await startApi(createTestUpstate(db)); // NOTIFY_ALLOW_PRIVATE_TARGETS unset
	ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'notification-channels': 20 } });
	key = await issueKey(db, ws, 'write');
});
afterAll(() => api.close());

const call = (method: string, path: string, body: unknown) =>
	fetch(`${api.url}${path}`, {
		method,
		headers: { 'x-service-key': key, 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});

describe('private targets over REST v1', () => {
	it('refuses a loopback webhook endpoint at save, naming the field and the setting', async () => {
		const res = await call('POST', '/v1/notifications', {
			name: 'Local hook',
			provider_type: 'webhook',
			webhook: { endpoint: 'http://127.0.0.1:9/hook' }
		});
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual(
			errorBody.validation('webhook.endpoint', refused('127.0.0.1', '127.0.0.1'))
		);
		expect(await db.notificationChannel.count({ where: { workspaceId: ws.id } })).toBe(0);
	});

	it('refuses an ntfy server on localhost and a private IPv6 address', async () => {
		const ntfy = await call('POST', '/v1/notifications', {
			name: 'ntfy',
			provider_type: 'ntfy',
			ntfy: { topic: 'alerts', server_url: 'http://localhost:8080' }
		});
		expect(ntfy.status).toBe(400);
		const body = (await ntfy.json()) as {
			error: { issues: Array<{ path: string; message: string }> };
		};
		expect(body.error.issues.map((i) => i.path)).toEqual(['ntfy.server_url']);
		expect(body.error.issues[0].message).toMatch(/^localhost is a private, loopback .*=true$/);
		const v6 = await call('POST', '/v1/notifications', {
			name: 'v6',
			provider_type: 'webhook',
			webhook: { endpoint: 'http://[fd00::1]/hook' }
		});
		expect(await v6.json()).toEqual(
			errorBody.validation('webhook.endpoint', refused('fd00::1', 'fd00::1'))
		);
	});

	it('refuses an update to a private target and keeps the stored one', async () => {
		const created = await call('POST', '/v1/notifications', {
			name: 'Public hook',
			provider_type: 'webhook',
			webhook: { endpoint: 'https://8.8.8.8/hook' }
		});
		expect(created.status).toBe(201);
		const { id } = (await created.json()) as { id: number };
		const res = await call('PATCH', `/v1/notifications/${id}`, {
			webhook: { endpoint: 'http://10.1.2.3/hook' }
		});
		expect(await res.json()).toEqual(
			errorBody.validation('webhook.endpoint', refused('10.1.2.3', '10.1.2.3'))
		);
		const row = await db.notificationChannel.findUniqueOrThrow({ where: { id } });
		expect(row.config).toContain('https://8.8.8.8/hook');
	});
});

describe('private targets in the domain verbs', () => {
	it('refuses by default and accepts when the operator allows private targets', async () => {
		const input = {
			name: 'Slack on the LAN',
			provider_type: 'slack' as const,
			slack: { webhook_url: 'http://192.168.1.20/services/x' }
		};
		const ctx = ctxFor(db, ws);
		await expect(createNotificationChannel({ ctx, input, vault: testVault })).rejects.toThrow(
			`slack.webhook_url: ${refused('192.168.1.20', '192.168.1.20')}`
		);
		const allowed = await createNotificationChannel({
			ctx,
			input,
			vault: testVault,
			allowPrivateTargets: true
		});
		expect(allowed.name).toBe('Slack on the LAN');
		await expect(
			updateNotificationChannel({
				ctx,
				input: {
					notificationChannelId: allowed.id,
					slack: { webhook_url: 'http://169.254.169.254/' }
				},
				vault: testVault
			})
		).rejects.toThrow(`slack.webhook_url: ${refused('169.254.169.254', '169.254.169.254')}`);
		// A rename leaves the stored target alone: nothing new to check.
		const renamed = await updateNotificationChannel({
			ctx,
			input: { notificationChannelId: allowed.id, name: 'Renamed' },
			vault: testVault
		});
		expect(renamed.name).toBe('Renamed');
	});
});
