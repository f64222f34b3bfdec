import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { createUpstate, setUpstate, type Upstate } from './app.ts';
import { configureSvelteKitAdapters, loadConfig, type Config, type Service } from './config.ts';
import { setCrashPoint } from './crash-point.ts';
import { migrate } from './db/migrate.ts';
import { guardProcess, isolate } from './isolate.ts';
import { statusFastPath } from './status-site.ts';
import { createWorkflowsServer } from './workflows/index.ts';

// The all-in-one process (`npm start`): migrations first, then every service on its port
// (DESIGN.md). UPSTATE_SERVICES=api,dashboard,... runs a subset, as the containers do.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function listen(name: string, server: net.Server, port: number, host: string): Promise<void> {
	return new Promise((resolve, reject) => {
		server.once('error', (err: NodeJS.ErrnoException) =>
			reject(
				err.code === 'EADDRINUSE'
					? new Error(
							`${name}: port ${port} is in use; stop the other process or set its *_PORT variable`
						)
					: err
			)
		);
		server.listen(port, host, () => {
			console.log(`[main] listening service=${name} url=http://${host}:${port}`);
			resolve();
		});
	});
}

async function sveltekitHandler(app: 'web' | 'status'): Promise<http.RequestListener> {
	const file = path.join(root, app, 'build', 'handler.js');
	if (!existsSync(file))
		throw new Error(
			`${app}/build is missing: run \`npm run build\` first (npm start does it for you)`
		);
	const mod = (await import(pathToFileURL(file).href)) as { handler: http.RequestListener };
	// The status app registered its cache-hit path while loading: hits skip SvelteKit.
	const fast = app === 'status' ? statusFastPath() : null;
	return (req, res) => {
		// Served directly, the scheme is http; a TLS proxy in front says https itself.
		req.headers['x-forwarded-proto'] ??= 'http';
		if (!fast) return mod.handler(req, res);
		fast(req, res).then(
			(served) => served || mod.handler(req, res),
			() => mod.handler(req, res)
		);
	};
}

async function startService(
	service: Exclude<Service, 'local-probe'>,
	upstate: Upstate,
	config: Config
): Promise<net.Server> {
	const { host, ports } = config;
	let server: net.Server;
	switch (service) {
		case 'workflows': {
			const { scheduleJobs } = await import('./workflows/jobs.ts');
			const { createDeliveryWorker } = await import('./domain/delivery/index.ts');
			const { notifierFor } = await import('./notify/index.ts');
			scheduleJobs(upstate);
			// The outbox worker: sends alerts as soon as they are recorded, retries with backoff,
			// and on start sends whatever a previous process left pending.
			const deliveries = createDeliveryWorker({ db: upstate.db, notifier: notifierFor(upstate) });
			deliveries.start();
			// In this process publishing calls (dashboard, API, MCP) share the worker: subscriber
			// notices are sent at once instead of at the next poll.
			const { createSubscriberNotifier } = await import('./domain/subscriber/index.ts');
			upstate.notify = createSubscriberNotifier({
				db: upstate.db,
				statusPageUrl: config.urls.statusPage,
				onEnqueued: () => deliveries.kick()
			});
			// Status changes whose forward never arrived (a crash, a refused forward) are turned
			// into incidents and alerts now and then every few seconds.
			const { startStatusEventSweeper } = await import('./workflows/status-events.ts');
			startStatusEventSweeper({ upstate, deliveries });
			server = http.createServer(isolate(service, createWorkflowsServer({ upstate, deliveries })));
			await listen(service, server, ports.workflows, host);
			return server;
		}
		case 'api': {
			// HTTP/1.1 and h2c on one port (gRPC needs HTTP/2): see createApiListener.
			const { createApiListener } = await import('./api.ts');
			server = createApiListener({ upstate, wrap: (handler) => isolate(service, handler) });
			await listen(service, server, ports.api, host);
			return server;
		}
		case 'dashboard':
			server = http.createServer(isolate(service, await sveltekitHandler('web')));
			await listen(service, server, ports.dashboard, host);
			return server;
		case 'ingest': {
			const { createIngestHandler } = await import('./ingest/index.ts');
			server = http.createServer(isolate(service, createIngestHandler({ upstate })));
			await listen(service, server, ports.ingest, host);
			return server;
		}
		case 'status-page': {
			// Page changes written by other processes drop this process's render cache too.
			const { watchPageContentVersion } =
				await import('./domain/status-page/public/content-version.ts');
			watchPageContentVersion(upstate.db);
			server = http.createServer(isolate(service, await sveltekitHandler('status')));
			await listen(service, server, ports.statusPage, host);
			return server;
		}
	}
}

async function main(): Promise<void> {
	const config = loadConfig();
	setCrashPoint(config.testCrashAt);
	guardProcess();
	configureSvelteKitAdapters();
	const services = config.services;
	if (config.migrateOnStart) migrate(config.databaseUrl, config.databaseAuthToken);
	const upstate = createUpstate(config);
	if (services.includes('ingest') && !config.cronSecret) {
		console.warn(
			'[main] warning CRON_SECRET is not set: status changes cannot reach the workflows app; set it in .env'
		);
	}
	setUpstate(upstate);
	const servers: net.Server[] = [];
	const stoppers: Array<() => void> = [];
	for (const service of services) {
		if (service === 'local-probe') {
			const { startLocalProbes } = await import('./local-probe.ts');
			stoppers.push(startLocalProbes({ upstate }).stop);
			continue;
		}
		servers.push(await startService(service, upstate, config));
	}
	console.log(
		`[main] ready services=${services.join(',')} dashboard=${config.urls.dashboard} mail=${upstate.mailer.transport} data=${config.dataDir}`
	);
	const stop = (signal: string) => {
		console.log(`[main] stopping signal=${signal}`);
		for (const stopper of stoppers) stopper();
		for (const s of servers) s.close();
		void upstate.db.$disconnect().finally(() => process.exit(0));
		setTimeout(() => process.exit(0), 3000).unref();
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
	console.error(`[main] failed to start: ${err instanceof Error ? err.message : String(err)}`);
	process.exit(1);
});
