import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Upstate } from '../src/app.ts';
import { createDeliveryWorker } from '../src/domain/delivery/index.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createNotificationChannel } from '../src/domain/notification-channel/index.ts';
import { createPrivateLocation } from '../src/domain/private-location/index.ts';
import { createIngestHandler } from '../src/ingest/index.ts';
import { notifierFor } from '../src/notify/index.ts';
import { createWorkflowsServer } from '../src/workflows/index.ts';
import { ALERTING_LIMITS } from './alerting.ts';
import { createTestDb } from './db.ts';
import { startFakeVendor } from './fake-vendor.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate } from './upstate.ts';

export const CRON_SECRET = 'alerting-cron-secret';

const listen = async (handler: http.RequestListener) => {
	const server = http.createServer(handler);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};
const closeServer = (s: http.Server) =>
	new Promise<void>((r) => {
		s.closeAllConnections();
		s.close(() => r());
	});

// The real alert path on 127.0.0.1: the ingest server forwarding to the workflows app, which
// records incidents and kicks its delivery worker, and a webhook receiver standing in for the
// customer's endpoint. One HTTP monitor (retry 0) on `targetUrl` is assigned to one private
// location whose key a probe (or a test client) reports with. `arrivals` holds when each webhook
// arrived (performance.now()).
export async function startAlertingStack(args: { targetUrl: string }) {
	const { db } = await createTestDb();
	const upstate: Upstate = createTestUpstate(db, {
		CRON_SECRET,
		NOTIFY_ALLOW_PRIVATE_TARGETS: 'true'
	});
	const arrivals: number[] = [];
	const receiver = await startFakeVendor(() => {
		arrivals.push(performance.now());
		return { status: 200 };
	});
	const notifier = notifierFor(upstate);
	const deliveries = createDeliveryWorker({ db, notifier, pollMs: 1000 });
	deliveries.start();
	const workflows = await listen(createWorkflowsServer({ upstate, deliveries }));
	upstate.config.urls.workflows = workflows.url;
	const ingest = await listen(createIngestHandler({ upstate }));
	const ws = await createWorkspace(db, {
		limits: { ...ALERTING_LIMITS, 'private-locations': true }
	});
	const ctx = ctxFor(db, ws);
	const monitor = await createMonitor({
		ctx,
		input: {
			type: 'http',
			name: 'Target',
			periodicity: '30s',
			active: true,
			retry: 0,
			timeout: 2000,
			url: args.targetUrl
		}
	});
	const channel = await createNotificationChannel({
		ctx,
		input: {
			name: 'Receiver',
			provider_type: 'webhook',
			monitor_ids: [monitor.id],
			webhook: { endpoint: `${receiver.url}/upstate` }
		},
		allowPrivateTargets: true, // the receiver listens on 127.0.0.1
		vault: notifier.vault
	});
	const location = await createPrivateLocation({
		ctx,
		input: { name: 'Local', monitor_ids: [monitor.id] }
	});
	return {
		upstate,
		db,
		ctx,
		monitor,
		channel,
		signingSecret: channel.signing_secret ?? '',
		key: location.token,
		locationName: 'Local',
		ingestUrl: ingest.url,
		workflowsUrl: workflows.url,
		receiver,
		arrivals,
		async close() {
			await deliveries.stop();
			await Promise.all([
				closeServer(workflows.server),
				closeServer(ingest.server),
				receiver.close()
			]);
		}
	};
}
