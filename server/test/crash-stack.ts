import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { createDb, type Db } from '../src/db/client.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createNotificationChannel } from '../src/domain/notification-channel/index.ts';
import { createPrivateLocation } from '../src/domain/private-location/index.ts';
import { CheckResultSchema, IngestService } from '@upstate/proto/ingest';
import { ALERTING_LIMITS, testVault } from './alerting.ts';
import { startFakeVendor } from './fake-vendor.ts';
import { createWorkspace, ctxFor } from './factories.ts';
import { freePort } from './servers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function until(cond: () => Promise<boolean> | boolean, what: string): Promise<void> {
	const end = Date.now() + 60_000;
	while (!(await cond())) {
		if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

export type ServerProcess = { child: ChildProcess; logs: string[]; exited: Promise<string | null> };

// The all-in-one server (workflows + ingest) as a real process on one data dir, which a test
// kills (or which kills itself at UPSTATE_TEST_CRASH_AT) and starts again on the same files; a
// webhook receiver the test owns; one HTTP monitor wired to it; a client reporting as its probe.
export async function startCrashRig() {
	const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-crash-'));
	const ports = { workflows: await freePort(), ingest: await freePort(), api: await freePort() };
	const receiver = await startFakeVendor();
	let current: ServerProcess | null = null;

	async function start(crashAt = ''): Promise<ServerProcess> {
		const child = spawn(process.execPath, ['server/src/main.ts'], {
			cwd: root,
			env: {
				...process.env,
				NODE_ENV: 'development',
				UPSTATE_SERVICES: 'workflows,ingest',
				DATA_DIR: dataDir,
				DATABASE_URL: '',
				AUTH_SECRET: 'test-auth-secret',
				CRON_SECRET: 'crash-cron-secret',
				WORKFLOWS_PORT: String(ports.workflows),
				INGEST_PORT: String(ports.ingest),
				API_PORT: String(ports.api),
				NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
				UPSTATE_TEST_CRASH_AT: crashAt
			},
			stdio: ['ignore', 'pipe', 'pipe']
		});
		const logs: string[] = [];
		const exited = new Promise<string | null>((r) =>
			child.once('exit', (_code, signal) => r(signal))
		);
		await new Promise<void>((resolve, reject) => {
			const onData = (chunk: Buffer) => {
				logs.push(chunk.toString());
				if (chunk.toString().includes('[main] ready')) resolve();
			};
			child.stdout?.on('data', onData);
			child.stderr?.on('data', onData);
			void exited.then(() => reject(new Error(`server exited at start:\n${logs.join('')}`)));
		});
		current = { child, logs, exited };
		return current;
	}

	await start();
	const db: Db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
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
			url: 'https://t.test'
		}
	});
	await createNotificationChannel({
		ctx,
		input: {
			name: 'Receiver',
			provider_type: 'webhook',
			monitor_ids: [monitor.id],
			webhook: { endpoint: `${receiver.url}/hook` }
		},
		allowPrivateTargets: true, // the receiver listens on 127.0.0.1
		vault: testVault
	});
	const location = await createPrivateLocation({
		ctx,
		input: { name: 'Local', monitor_ids: [monitor.id] }
	});
	const client: Client<typeof IngestService> = createClient(
		IngestService,
		createConnectTransport({
			baseUrl: `http://127.0.0.1:${ports.ingest}`,
			httpVersion: '1.1',
			interceptors: [
				(next) => (req) => {
					req.header.set('authorization', `Bearer ${location.token}`);
					return next(req);
				}
			]
		})
	);
	let seq = 0;
	type Result = ReturnType<typeof create<typeof CheckResultSchema>>;

	return {
		db,
		dataDir,
		ws,
		monitor,
		receiver,
		// A check result as the probe makes it; kept, so `report` of the same one resends it.
		result(outcome: 'success' | 'degraded' | 'error') {
			const r = create(CheckResultSchema, {
				resultId: `crash-${monitor.id}-${++seq}-${Date.now()}`,
				monitorId: monitor.id,
				startedAtMs: Date.now(),
				latencyMs: outcome === 'degraded' ? 900 : 20,
				outcome,
				attempts: 1,
				statusCode: outcome === 'error' ? 500 : 200,
				error: outcome === 'error' ? 'HTTP 500' : '',
				headers: {},
				assertionsJson: '[]',
				grpcStatus: ''
			});
			return r;
		},
		// Reports like the probe: null when the server died on the batch (the caller resends it).
		async reportMany(batch: Array<Result>) {
			try {
				return await client.ingestResults({ results: batch });
			} catch {
				return null;
			}
		},
		report(r: Result) {
			return this.reportMany([r]);
		},
		// Kills the running server (SIGKILL) and starts it again on the same data dir.
		async restart(crashAt = '') {
			if (current && current.child.exitCode === null && current.child.signalCode === null) {
				current.child.kill('SIGKILL');
				await current.exited;
			}
			return start(crashAt);
		},
		async settled(): Promise<boolean> {
			const [events, open] = await Promise.all([
				db.statusEvent.count({ where: { workspaceId: ws.id, processedAt: null } }),
				db.delivery.count({ where: { workspaceId: ws.id, status: { in: ['pending', 'sending'] } } })
			]);
			return events === 0 && open === 0;
		},
		async killedBySelf(): Promise<string | null> {
			return (await current?.exited) ?? null;
		},
		events: () =>
			receiver.requests.map((r) => {
				const body = JSON.parse(r.body) as { event: string; incident_id: number | null };
				return body.incident_id === null ? body.event : `${body.event}#${body.incident_id}`;
			}),
		async incidentAudit(): Promise<string[]> {
			return (
				await db.auditLog.findMany({
					where: { workspaceId: ws.id, entityType: 'incident' },
					orderBy: { id: 'asc' }
				})
			).map((a) => `${a.action}#${a.entityId}`);
		},
		async stop() {
			if (current && current.child.exitCode === null && current.child.signalCode === null) {
				current.child.kill('SIGKILL');
				await current.exited;
			}
			await db.$disconnect();
			await receiver.close();
		},
		logs: () => current?.logs.join('') ?? ''
	};
}
