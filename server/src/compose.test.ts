import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadProbeConfig } from '../../probe/src/config.ts';
import { loadConfig, loadDatabaseConfig, requiredVariables, SERVICES } from './config.ts';

// The compose files as Compose reads them (YAML with merge keys, ${VAR} interpolation from .env),
// each app service's environment checked against what its process validates at start.
type Service = {
	image?: string;
	command?: string[];
	environment?: Record<string, string | number | boolean | null>;
	ports?: string[];
	volumes?: string[];
	profiles?: string[];
	depends_on?: Record<string, { condition: string }> | string[];
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };

const root = new URL('../../', import.meta.url);
const load = (file: string): Compose =>
	parse(readFileSync(new URL(file, root), 'utf8'), { merge: true }) as Compose;

// Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error} (empty counts as unset).
function interpolate(value: string, env: Record<string, string>): string {
	return value.replace(
		/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
		(_, name: string, op, arg: string) => {
			if (env[name]) return env[name];
			if (op === '?') throw new Error(`compose: ${arg}`);
			return op === '-' ? arg : '';
		}
	);
}
const envOf = (service: Service, dotEnv: Record<string, string>) =>
	Object.fromEntries(
		Object.entries(service.environment ?? {}).map(([k, v]) => [
			k,
			interpolate(String(v ?? ''), dotEnv)
		])
	);

// What the image itself sets (Dockerfile ENV), under the service's environment.
const imageEnv = Object.fromEntries(
	readFileSync(new URL('Dockerfile', root), 'utf8')
		.split('\n')
		.filter((l) => l.startsWith('ENV '))
		.flatMap((l) => l.slice(4).trim().split(/\s+/))
		.map((kv) => kv.split('=') as [string, string])
);

// The .env a new operator writes (README): two secrets and a mail setting, nothing else.
const DOT_ENV = {
	AUTH_SECRET: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldC0=',
	CRON_SECRET: 'cron-secret',
	SMTP_URL: 'smtp://mail.example.com:587'
};

const SETUP = 'server/src/analytics/local-setup.ts';

// Starts each app service's configuration as its container would, from `dotEnv`.
function bootEach(compose: Compose, dotEnv: Record<string, string>) {
	return (
		Object.entries(compose.services)
			// analytics-setup is a one-shot tool, not an app process (its own test below)
			.filter(([, s]) => s.image === 'upstate:local' && !s.command?.includes(SETUP))
			.map(([name, s]) => {
				const env = { ...imageEnv, ...envOf(s, dotEnv) };
				const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-compose-'));
				if (s.command?.includes('server/src/db/migrate.ts'))
					return { name, env, config: null, db: loadDatabaseConfig({ ...env, DATA_DIR: dataDir }) };
				return { name, env, config: loadConfig({ ...env, DATA_DIR: dataDir }), db: null };
			})
	);
}

const published = (s: Service) => (s.ports ?? []).map((p) => p.split(':').map(Number));

describe.each([
	['docker-compose.yaml', load('docker-compose.yaml')],
	['docker-compose.light.yaml', load('docker-compose.light.yaml')]
])('%s', (_file, compose) => {
	it('boots every service from a .env holding only AUTH_SECRET, CRON_SECRET and a mail setting', () => {
		for (const { name, env, config, db } of bootEach(compose, DOT_ENV)) {
			expect(env.NODE_ENV ?? imageEnv.NODE_ENV, name).toBe('production');
			if (db) {
				expect(db.databaseUrl, name).toBe('http://db:8080');
				continue;
			}
			// Everything its process requires is set by the compose file itself, not left to an
			// image default, and each service listens on the port the file publishes.
			for (const r of requiredVariables(config!.services))
				expect(
					r.anyOf.some((v) => envOf(compose.services[name], DOT_ENV)[v]),
					`${name}: ${r.anyOf.join('|')}`
				).toBe(true);
			expect(config!.selfHost, name).toBe(true);
			// db-migrate migrates; the services do not race it.
			expect(config!.migrateOnStart, name).toBe(false);
			expect(config!.databaseUrl, name).toBe('http://db:8080');
			const port = {
				workflows: config!.ports.workflows,
				api: config!.ports.api,
				dashboard: config!.ports.dashboard,
				'status-page': config!.ports.statusPage,
				ingest: config!.ports.ingest,
				'local-probe': undefined
			}[config!.services[0]];
			expect(
				published(compose.services[name]).map(([, inside]) => inside),
				name
			).toContain(port);
			// Nothing else starts before the migration has finished.
			expect(compose.services[name].depends_on, name).toMatchObject({
				'db-migrate': { condition: 'service_completed_successfully' }
			});
		}
	});

	it('stops each service whose .env lacks what it needs, naming the variable', () => {
		for (const missing of Object.keys(DOT_ENV)) {
			const partial: Record<string, string> = { ...DOT_ENV, [missing]: '' };
			const needs = Object.entries(compose.services).filter(([, s]) =>
				Object.values(s.environment ?? {}).some((v) => String(v).includes(`\${${missing}`))
			);
			for (const [name, s] of needs) {
				const env = { ...imageEnv, ...(safeEnv(s, partial) ?? {}) };
				const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-compose-'));
				// Either Compose refuses to start (${VAR:?...}) or the process names what to set.
				const message =
					safeEnv(s, partial) === null
						? interpolationError(s, partial)
						: errorOf(() => loadConfig({ ...env, DATA_DIR: dataDir }));
				expect(message, `${name} without ${missing}`).toContain(missing);
			}
		}
	});

	it('keeps its data in named volumes', () => {
		const volumes = Object.keys(compose.volumes ?? {});
		for (const s of Object.values(compose.services))
			for (const v of s.volumes ?? []) expect(volumes).toContain(v.split(':')[0]);
	});
});

function safeEnv(s: Service, env: Record<string, string>) {
	try {
		return envOf(s, env);
	} catch {
		return null;
	}
}
function interpolationError(s: Service, env: Record<string, string>): string {
	return errorOf(() => envOf(s, env));
}
function errorOf(fn: () => unknown): string {
	try {
		fn();
	} catch (err) {
		return (err as Error).message;
	}
	return '(no error)';
}

describe('docker-compose.yaml (full stack, spec 1.1)', () => {
	const compose = load('docker-compose.yaml');
	const booted = Object.fromEntries(bootEach(compose, DOT_ENV).map((b) => [b.name, b] as const));

	it('has the services and ports of spec 1.1', () => {
		const s = compose.services;
		expect(published(s.workflows)).toEqual([[3000, 3000]]);
		expect(published(s.server)).toEqual([[3001, 3001]]);
		expect(published(s.dashboard)).toEqual([[3002, 3002]]);
		expect(published(s['status-page'])).toEqual([[3003, 3003]]);
		// The ingest server: 8081 outside, private-location:8080 inside the network.
		expect(published(s['private-location'])).toEqual([[8081, 8080]]);
		expect(booted['private-location'].config!.ports.ingest).toBe(8080);
		expect(published(s.db)).toEqual([
			[8080, 8080],
			[5001, 5001]
		]);
		expect(s['db-migrate'].ports).toBeUndefined();
		// The local analytics container only with --profile analytics.
		expect(published(s.analytics)).toEqual([[7181, 7181]]);
		expect(s.analytics.profiles).toEqual(['analytics']);
	});

	it('runs each service once and no probe (the probe runs where checks originate)', () => {
		const run = Object.values(booted).flatMap((b) => b.config?.services ?? []);
		expect(run.sort()).toEqual(SERVICES.filter((s) => s !== 'local-probe').sort());
	});

	it('forwards status changes inside the stack with the shared CRON_SECRET, one analytics token', () => {
		const ingest = booted['private-location'].config!;
		expect(ingest.urls.workflows).toBe('http://workflows:3000');
		expect(ingest.cronSecret).toBe(DOT_ENV.CRON_SECRET);
		expect(booted.workflows.config!.cronSecret).toBe(DOT_ENV.CRON_SECRET);
		const tinybird = { ...DOT_ENV, ANALYTICS_URL: 'http://analytics:7181', ANALYTICS_TOKEN: 'tb' };
		const withTb = Object.fromEntries(bootEach(compose, tinybird).map((b) => [b.name, b]));
		expect(withTb['private-location'].config!.analytics.ingestToken).toBe('tb');
		for (const name of ['workflows', 'server', 'dashboard', 'status-page'])
			expect(withTb[name].config!.analytics).toMatchObject({
				url: 'http://analytics:7181',
				apiKey: 'tb'
			});
	});

	it('feeds both analytics tokens from the file analytics-setup writes (one value, spec 2.1)', () => {
		const setup = compose.services['analytics-setup'];
		expect(setup.profiles).toEqual(['analytics']);
		expect(setup.command).toEqual(['node', SETUP]);
		expect(setup.volumes).toEqual(['app-data:/data']);
		const file = envOf(setup, DOT_ENV).ANALYTICS_TOKEN_FILE;
		expect(envOf(setup, DOT_ENV).ANALYTICS_URL).toBe('http://analytics:7181');
		const tinybird = { ...DOT_ENV, ANALYTICS_URL: 'http://analytics:7181' };
		const withTb = Object.fromEntries(bootEach(compose, tinybird).map((b) => [b.name, b]));
		for (const name of ['workflows', 'server', 'dashboard', 'status-page', 'private-location'])
			expect(withTb[name].config!.analytics.tokenFile, name).toBe(file);
	});

	it('gives every app service the same DATA_DIR volume (the embedded analytics file)', () => {
		for (const [name, s] of Object.entries(compose.services).filter(
			([, s]) => s.image === 'upstate:local' && !s.command
		))
			expect(s.volumes, name).toEqual(['app-data:/data']);
	});
});

describe('docker-compose.light.yaml (spec 1.2)', () => {
	const compose = load('docker-compose.light.yaml');

	it('has db 8080, db-migrate, dashboard 3000 and status page 3001 on one named volume', () => {
		const s = compose.services;
		expect(Object.keys(s).sort()).toEqual(['dashboard', 'db', 'db-migrate', 'status-page']);
		expect(published(s.db)).toEqual([[8080, 8080]]);
		expect(published(s.dashboard)).toEqual([[3000, 3000]]);
		expect(published(s['status-page'])).toEqual([[3001, 3001]]);
		expect(Object.keys(compose.volumes ?? {})).toEqual(['data']);
	});
});

describe('docker-compose.probe.yaml', () => {
	it('needs only SERVICE_KEY and SERVICE_INGEST_URL', () => {
		const { probe } = load('docker-compose.probe.yaml').services;
		expect(Object.keys(probe.environment ?? {}).sort()).toEqual([
			'SERVICE_INGEST_URL',
			'SERVICE_KEY'
		]);
		const env = envOf(probe, { SERVICE_KEY: 'usp_x', SERVICE_INGEST_URL: 'http://stack:8081' });
		expect(loadProbeConfig(env)).toMatchObject({
			key: 'usp_x',
			ingestUrl: 'http://stack:8081'
		});
		expect(errorOf(() => envOf(probe, { SERVICE_INGEST_URL: 'http://stack:8081' }))).toContain(
			'SERVICE_KEY'
		);
	});
});
