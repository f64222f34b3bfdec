import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/client.ts';
import type { ServiceContext } from '../src/domain/context.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createNotificationChannel } from '../src/domain/notification-channel/index.ts';
import { createMailer } from '../src/mail/index.ts';
import type { Notifier } from '../src/notify/index.ts';
import { createVault } from '../src/notify/vault.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from './factories.ts';

export const ALERTING_LIMITS = {
	...TEAM_LIMITS,
	notifications: true,
	'notification-channels': 50,
	maintenance: true,
	sms: true,
	'sms-limit': 2
};

export const testVault = createVault('test-auth-secret');

// A notifier whose vendors may be on 127.0.0.1 (the fake receivers tests start).
export function testNotifier(env: Record<string, string> = {}): Notifier {
	const config = loadConfig({ NOTIFY_ALLOW_PRIVATE_TARGETS: 'true', ...env });
	return {
		vault: testVault,
		config: config.notify,
		mailer: createMailer(config.mail),
		dashboardUrl: 'http://dash.test',
		statusPageUrl: 'http://status.test',
		linkSecret: 'test-auth-secret'
	};
}

// A workspace with one HTTP monitor wired to a webhook channel pointing at `endpoint`.
export async function alertingWorkspace(db: Db, endpoint: string) {
	const ws = await createWorkspace(db, { limits: ALERTING_LIMITS });
	const ctx = ctxFor(db, ws);
	const monitor = await createMonitor({
		ctx,
		input: { type: 'http', name: 'API', periodicity: '1m', url: 'https://api.example.com/health' }
	});
	const channel = await createNotificationChannel({
		ctx,
		input: {
			name: 'Hook',
			provider_type: 'webhook',
			monitor_ids: [monitor.id],
			webhook: { endpoint }
		},
		allowPrivateTargets: true, // the receiver listens on 127.0.0.1
		vault: testVault
	});
	return { ws, ctx, monitor, channel, signingSecret: channel.signing_secret ?? '' };
}

export const systemCtx = (ctx: ServiceContext): ServiceContext => ({
	...ctx,
	actor: { type: 'system', job: 'status-update' }
});
