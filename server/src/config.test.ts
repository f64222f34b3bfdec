import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelFor } from './assistant/chat.ts';
import {
	AI_GATEWAY_MODELS,
	AI_GATEWAY_URL,
	ConfigError,
	loadConfig,
	loadDatabaseConfig
} from './config.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'upstate-config-'));
// Everything a production process of every service needs (spec 1.4.1).
const PRODUCTION = {
	NODE_ENV: 'production',
	AUTH_SECRET: 'a'.repeat(44),
	SELF_HOST: 'true',
	NEXT_PUBLIC_URL: 'https://upstate.example.com',
	SMTP_URL: 'smtp://mail.example.com:587',
	CRON_SECRET: 'cron'
};

describe('config', () => {
	it('configures the assistant from AI_BASE_URL, which wins over AI_GATEWAY_API_KEY', () => {
		expect(loadConfig({ DATA_DIR: tmp() }).ai).toBeNull();
		const gateway = loadConfig({ DATA_DIR: tmp(), AI_GATEWAY_API_KEY: 'gw-key' }).ai;
		expect(gateway).toEqual({
			baseUrl: AI_GATEWAY_URL,
			apiKey: 'gw-key',
			models: AI_GATEWAY_MODELS
		});
		expect(AI_GATEWAY_MODELS.free).not.toBe(AI_GATEWAY_MODELS.paid);
		expect(modelFor(gateway!, 'free')).toBe(AI_GATEWAY_MODELS.free); // safe: asserted just above
		expect(modelFor(gateway!, 'team')).toBe(AI_GATEWAY_MODELS.paid);
		expect(modelFor(gateway!, 'self-host')).toBe(AI_GATEWAY_MODELS.paid);
		const both = loadConfig({
			DATA_DIR: tmp(),
			AI_GATEWAY_API_KEY: 'gw-key',
			AI_BASE_URL: 'http://127.0.0.1:11434/v1',
			AI_MODEL: 'qwen3:8b'
		}).ai;
		expect(both).toEqual({
			baseUrl: 'http://127.0.0.1:11434/v1',
			apiKey: '',
			models: { free: 'qwen3:8b', paid: 'qwen3:8b' }
		});
		expect(() => loadConfig({ DATA_DIR: tmp(), AI_BASE_URL: 'http://127.0.0.1:1/v1' })).toThrow(
			/AI_MODEL/
		);
		expect(() => loadConfig({ DATA_DIR: tmp(), AI_BASE_URL: 'not a url', AI_MODEL: 'm' })).toThrow(
			ConfigError
		);
	});

	it('ships the OAuth redirect allowlist and editor schemes, and lets each be replaced', () => {
		const defaults = loadConfig({ DATA_DIR: tmp() });
		expect(defaults.urls.api).toBe('http://localhost:3001');
		expect(defaults.oauth.redirectDomains).toContain('claude.ai');
		expect(defaults.oauth.editorSchemes).toEqual(['cursor', 'vscode', 'windsurf']);
		expect(defaults.oauth.testCimdCa).toBeUndefined();
		const custom = loadConfig({
			DATA_DIR: tmp(),
			OAUTH_REDIRECT_DOMAINS: ' Example.com, tools.example.org ',
			OAUTH_EDITOR_SCHEMES: 'zed'
		});
		expect(custom.oauth.redirectDomains).toEqual(['example.com', 'tools.example.org']);
		expect(custom.oauth.editorSchemes).toEqual(['zed']);
	});

	it('has documented rate-limit and /mcp origin defaults, and refuses a zero limit', () => {
		const config = loadConfig({ DATA_DIR: tmp() });
		expect(config.rateLimit).toEqual({
			perCredential: 300,
			anonymous: 60,
			oauth: 60,
			windowSeconds: 60
		});
		expect(config.mcp).toEqual({ allowedHosts: [], allowedOrigins: [] });
		expect(config.urls.web).toBeUndefined();
		const set = loadConfig({
			DATA_DIR: tmp(),
			RATE_LIMIT_REQUESTS: '50',
			MCP_ALLOWED_HOSTS: 'mcp.internal, api.example.com'
		});
		expect(set.rateLimit.perCredential).toBe(50);
		expect(set.mcp.allowedHosts).toEqual(['mcp.internal', 'api.example.com']);
		expect(() => loadConfig({ DATA_DIR: tmp(), RATE_LIMIT_REQUESTS: '0' })).toThrow(ConfigError);
	});

	it('runs on the embedded default with no configuration', () => {
		const dir = tmp();
		const config = loadConfig({ DATA_DIR: dir });
		expect(config.databaseUrl).toBe(`file:${path.join(dir, 'upstate.db')}`);
		expect(config.ports).toEqual({
			workflows: 3000,
			api: 3001,
			dashboard: 3002,
			statusPage: 3003,
			ingest: 8081
		});
		expect(config.mail.smtpUrl).toBeUndefined();
		expect(config.services).toEqual([
			'workflows',
			'api',
			'dashboard',
			'status-page',
			'ingest',
			'local-probe'
		]);
		// the generated local secret is stable across loads
		expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(config.authSecret);
	});

	it('names the variable and what to set when a value is malformed', () => {
		expect(() => loadConfig({ DATA_DIR: tmp(), API_PORT: 'abc' })).toThrow(
			/API_PORT: .*\.env\.example/
		);
		expect(() => loadConfig({ DATA_DIR: tmp(), NEXT_PUBLIC_URL: 'not a url' })).toThrow(
			/NEXT_PUBLIC_URL/
		);
		expect(() => loadConfig({ DATA_DIR: tmp(), UPSTATE_SERVICES: 'api,ingestt' })).toThrow(
			/UPSTATE_SERVICES has unknown services: ingestt/
		);
		expect(() => loadConfig({ DATA_DIR: tmp(), WORKSPACE_DEFAULT_LIMITS: '{nope' })).toThrow(
			ConfigError
		);
	});

	it('requires AUTH_SECRET in production', () => {
		expect(() => loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' })).toThrow(
			/AUTH_SECRET is required in production/
		);
	});

	it('stops a production process with one line naming the first setting its services lack (spec 1.4.1)', () => {
		const prod = { ...PRODUCTION, DATA_DIR: tmp() };
		expect(loadConfig(prod).isProduction).toBe(true);
		const failure = (env: Record<string, string>) => {
			try {
				loadConfig(env);
			} catch (err) {
				expect(err).toBeInstanceOf(ConfigError);
				return (err as Error).message;
			}
			throw new Error('loadConfig accepted the configuration');
		};
		for (const name of ['SELF_HOST', 'NEXT_PUBLIC_URL', 'CRON_SECRET']) {
			const message = failure({ ...prod, [name]: '' });
			expect(message).toMatch(new RegExp(`^${name} is required in production`));
			expect(message).not.toContain('\n');
		}
		expect(failure({ ...prod, SMTP_URL: '' })).toMatch(
			/^EMAIL_PROVIDER_API_KEY or SMTP_URL are required in production .*set SMTP_URL/
		);
		expect(
			loadConfig({ ...prod, SMTP_URL: '', EMAIL_PROVIDER_API_KEY: 're_x' }).mail.smtpUrl
		).toMatch(/^smtps:/);
		// Each service is held only to what it reads: the ingest server sends no mail but needs
		// the workflows address when workflows runs elsewhere; the status page needs no cron secret.
		const ingest = { ...prod, UPSTATE_SERVICES: 'ingest', SMTP_URL: '' };
		expect(failure(ingest)).toMatch(/^WORKFLOWS_URL is required in production \(services ingest\)/);
		expect(loadConfig({ ...ingest, WORKFLOWS_URL: 'http://workflows:3000' }).services).toEqual([
			'ingest'
		]);
		expect(
			loadConfig({ ...prod, UPSTATE_SERVICES: 'status-page', CRON_SECRET: '' }).services
		).toEqual(['status-page']);
		// The all-in-one process migrates at start unless told its db-migrate does it.
		expect(loadConfig(prod).migrateOnStart).toBe(true);
		expect(loadConfig({ ...prod, MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
		// Outside production nothing is required (npm start on a fresh clone).
		expect(loadConfig({ DATA_DIR: tmp() }).isProduction).toBe(false);
	});

	it('lets db-migrate run with the database settings alone', () => {
		const dir = tmp();
		expect(loadDatabaseConfig({ NODE_ENV: 'production', DATA_DIR: dir }).databaseUrl).toBe(
			`file:${path.join(dir, 'upstate.db')}`
		);
		expect(
			loadDatabaseConfig({ NODE_ENV: 'production', DATABASE_URL: 'http://db:8080' }).databaseUrl
		).toBe('http://db:8080');
	});

	it('gives the embedded analytics pipes a token in production too: ANALYTICS_API_KEY or one kept in DATA_DIR', () => {
		const dir = tmp();
		const prod = { ...PRODUCTION, DATA_DIR: dir };
		const token = loadConfig(prod).analytics.apiKey;
		expect(token).toMatch(/^[A-Za-z0-9+/]{43}=$/);
		// Another container on the same DATA_DIR volume gets the same token.
		expect(loadConfig(prod).analytics.apiKey).toBe(token);
		expect(loadConfig({ ...prod, ANALYTICS_API_KEY: 'chosen' }).analytics.apiKey).toBe('chosen');
		// Tinybird's tokens come from Tinybird.
		expect(
			loadConfig({ ...prod, DATA_DIR: tmp(), ANALYTICS_URL: 'http://tb:7181' }).analytics.apiKey
		).toBeUndefined();
	});

	it('sends mail over SMTP when SMTP_URL or EMAIL_PROVIDER_API_KEY is set, SMTP_URL first', () => {
		expect(loadConfig({ DATA_DIR: tmp(), EMAIL_PROVIDER_API_KEY: 're_abc' }).mail.smtpUrl).toBe(
			'smtps://resend:re_abc@smtp.resend.com:465'
		);
		expect(
			loadConfig({
				DATA_DIR: tmp(),
				EMAIL_PROVIDER_API_KEY: 're_abc',
				SMTP_URL: 'smtp://127.0.0.1:2525'
			}).mail.smtpUrl
		).toBe('smtp://127.0.0.1:2525');
	});
});
