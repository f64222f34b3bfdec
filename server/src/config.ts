import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// Configuration is read once, here, and handed to constructors. Empty strings count as unset.
const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const url = (fallback: string) =>
	z.preprocess((v) => (v === '' || v === undefined ? fallback : v), z.url());
const port = (fallback: number) =>
	z.preprocess(
		(v) => (v === '' || v === undefined ? fallback : v),
		z.coerce.number().int().min(0).max(65535)
	);
const count = (fallback: number) =>
	z.preprocess((v) => (v === '' || v === undefined ? fallback : v), z.coerce.number().int().min(1));
const flag = z.preprocess(
	(v) => (v === '' || v === undefined ? undefined : String(v).toLowerCase()),
	z
		.enum(['true', 'false', '1', '0'])
		.optional()
		.transform((v) => v === 'true' || v === '1')
);

const Env = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
	HOST: z.preprocess((v) => v || '127.0.0.1', z.string()),
	DATA_DIR: z.preprocess((v) => v || './data', z.string()),
	DATABASE_URL: optional,
	DATABASE_AUTH_TOKEN: optional,
	AUTH_SECRET: optional,
	SELF_HOST: flag,
	ADMIN_EMAILS: optional,
	NEXT_PUBLIC_URL: url('http://localhost:3002'),
	STATUS_PAGE_URL: url('http://localhost:3003'),
	OAUTH_ISSUER: url('http://localhost:3001'),
	DASHBOARD_URL: url('http://localhost:3002'),
	OAUTH_REDIRECT_DOMAINS: optional,
	OAUTH_EDITOR_SCHEMES: optional,
	OAUTH_TEST_CIMD_CA: optional,
	EMAIL_PROVIDER_API_KEY: optional,
	EMAIL_PROVIDER_SMTP_URL: url('smtps://smtp.resend.com:465'),
	SMTP_URL: optional,
	MAIL_FROM: z.preprocess((v) => v || 'Upstate <no-reply@upstate.local>', z.string()),
	ANALYTICS_URL: optional,
	ANALYTICS_API_KEY: optional,
	ANALYTICS_INGEST_TOKEN: optional,
	ANALYTICS_TOKEN_FILE: optional,
	CRON_SECRET: optional,
	INGEST_PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
	WORKFLOWS_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
	SERVICE_WEB_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
	AI_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
	AI_API_KEY: optional,
	AI_MODEL: optional,
	AI_GATEWAY_API_KEY: optional,
	AI_CHAT_BUDGET_REQUESTS: count(30),
	AI_CHAT_BUDGET_WINDOW_SECONDS: count(600),
	SLACK_SIGNING_SECRET: optional,
	SLACK_CLIENT_ID: optional,
	SLACK_CLIENT_SECRET: optional,
	SLACK_API_URL: url('https://slack.com/api'),
	WORKFLOWS_PORT: port(3000),
	API_PORT: port(3001),
	DASHBOARD_PORT: port(3002),
	STATUS_PAGE_PORT: port(3003),
	INGEST_PORT: port(8081),
	WORKSPACE_DEFAULT_LIMITS: optional,
	UPSTATE_SERVICES: optional,
	MCP_ALLOWED_HOSTS: optional,
	MCP_ALLOWED_ORIGINS: optional,
	RATE_LIMIT_REQUESTS: count(300),
	RATE_LIMIT_ANONYMOUS_REQUESTS: count(60),
	RATE_LIMIT_OAUTH_REQUESTS: count(60),
	RATE_LIMIT_WINDOW_SECONDS: count(60),
	// false in the compose stacks: their db-migrate service migrates and everything waits on it.
	MIGRATE_ON_START: z.preprocess((v) => (v === '' || v === undefined ? 'true' : v), flag),
	TRUSTED_PROXY_HOPS: z.preprocess((v) => v || 0, z.coerce.number().int().min(0).max(10)),
	CUSTOM_DOMAIN_SKIP_DNS_CHECK: flag,
	CUSTOM_DOMAIN_DNS_SERVERS: optional,
	STATUS_PAGE_CACHE_TTL_SECONDS: z.preprocess(
		(v) => (v === '' || v === undefined ? 10 : v),
		z.coerce.number().int().min(0).max(3600)
	),
	LOCAL_PROBE_INTERVAL_MS: z.preprocess((v) => v || 30000, z.coerce.number().int().min(100)),
	NOTIFY_ALLOW_PRIVATE_TARGETS: flag,
	NOTIFY_BASE_URLS: optional,
	NOTIFY_TIMEOUT_MS: z.preprocess((v) => v || 10000, z.coerce.number().int().min(100).max(60000)),
	TELEGRAM_BOT_TOKEN: optional,
	TWILIO_ACCOUNT_SID: optional,
	TWILIO_AUTH_TOKEN: optional,
	TWILIO_FROM: optional,
	TWILIO_WHATSAPP_FROM: optional,
	// Test-only (crash tests): `point[:detail]` where this process SIGKILLs itself (crash-point.ts).
	UPSTATE_TEST_CRASH_AT: optional
});

// https redirect URIs a client may register (spec 4.2 rule 4): these AI-assistant vendors'
// domains and their subdomains, plus the service's own. OAUTH_REDIRECT_DOMAINS replaces the list.
export const OAUTH_REDIRECT_DOMAIN_DEFAULTS = [
	'claude.ai',
	'claude.com',
	'anthropic.com',
	'chatgpt.com',
	'openai.com',
	'cursor.com',
	'cursor.sh',
	'vscode.dev',
	'github.com',
	'windsurf.com',
	'codeium.com',
	'perplexity.ai',
	'mistral.ai'
];
// Custom schemes of editor applications (Cursor, VS Code, Windsurf); OAUTH_EDITOR_SCHEMES replaces.
export const OAUTH_EDITOR_SCHEME_DEFAULTS = ['cursor', 'vscode', 'windsurf'];

// Comma-separated, case-insensitive names (hostnames, schemes).
const list = (raw: string | undefined, fallback: string[] = []): string[] =>
	raw
		? raw
				.split(',')
				.map((s) => s.trim().toLowerCase())
				.filter(Boolean)
		: fallback;

// Vendor API origins; NOTIFY_BASE_URLS overrides any of them (tests point them at 127.0.0.1).
export const NOTIFY_BASE_URL_DEFAULTS = {
	pagerduty: 'https://events.pagerduty.com',
	opsgenie_us: 'https://api.opsgenie.com',
	opsgenie_eu: 'https://api.eu.opsgenie.com',
	telegram: 'https://api.telegram.org',
	twilio: 'https://api.twilio.com',
	ntfy: 'https://ntfy.sh'
};
const NotifyBaseUrls = z
	.object(
		Object.fromEntries(Object.keys(NOTIFY_BASE_URL_DEFAULTS).map((k) => [k, z.url().optional()]))
	)
	.strict();

export const SERVICES = [
	'workflows',
	'api',
	'dashboard',
	'status-page',
	'ingest',
	'local-probe'
] as const;
export type Service = (typeof SERVICES)[number];

function parseServices(raw: string | undefined): Service[] {
	if (!raw) return [...SERVICES];
	const wanted = raw
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const unknown = wanted.filter((s) => !SERVICES.includes(s as Service));
	if (unknown.length) {
		throw new ConfigError(
			`UPSTATE_SERVICES has unknown services: ${unknown.join(', ')} (known: ${SERVICES.join(', ')})`
		);
	}
	return wanted as Service[];
}

export type Config = ReturnType<typeof buildConfig> & { authProviders: AuthProviderConfig[] };

export class ConfigError extends Error {}

function buildConfig(env: z.infer<typeof Env>) {
	const isProduction = env.NODE_ENV === 'production';
	const dataDir = path.resolve(env.DATA_DIR);
	let baseUrls: Record<string, string | undefined> = {};
	if (env.NOTIFY_BASE_URLS) {
		try {
			baseUrls = NotifyBaseUrls.parse(JSON.parse(env.NOTIFY_BASE_URLS));
		} catch {
			throw new ConfigError(
				`NOTIFY_BASE_URLS must be a JSON object of URLs with keys ${Object.keys(NOTIFY_BASE_URL_DEFAULTS).join(', ')}.`
			);
		}
	}
	let defaultLimits: Record<string, unknown> = {};
	if (env.WORKSPACE_DEFAULT_LIMITS) {
		try {
			defaultLimits = z
				.record(z.string(), z.unknown())
				.parse(JSON.parse(env.WORKSPACE_DEFAULT_LIMITS));
		} catch {
			throw new ConfigError(
				'WORKSPACE_DEFAULT_LIMITS must be a JSON object of plan limit keys (spec 2.3), e.g. {"monitors":50}.'
			);
		}
	}
	return {
		isProduction,
		host: env.HOST,
		dataDir,
		databaseUrl: env.DATABASE_URL ?? defaultDatabaseUrl(dataDir),
		databaseAuthToken: env.DATABASE_AUTH_TOKEN,
		authSecret: env.AUTH_SECRET ?? localSecret(dataDir),
		selfHost: env.SELF_HOST,
		// Instance admins (dashboard admin page); empty = the first user who signed up.
		adminEmails: (env.ADMIN_EMAILS ?? '')
			.split(',')
			.map((e) => e.trim().toLowerCase())
			.filter(Boolean),
		urls: {
			dashboard: env.NEXT_PUBLIC_URL,
			statusPage: env.STATUS_PAGE_URL,
			api: env.OAUTH_ISSUER,
			consent: env.DASHBOARD_URL,
			// The all-in-one process forwards to its own workflows port unless told otherwise.
			workflows: env.WORKFLOWS_URL ?? `http://127.0.0.1:${env.WORKFLOWS_PORT}`,
			// Where the MCP resources' docs live (spec 4.1); unset: this API server serves them.
			web: env.SERVICE_WEB_BASE_URL,
			// Where probes report (the dashboard shows it in the probe's run command): the ingest
			// port on the dashboard's host unless set.
			ingest: env.INGEST_PUBLIC_URL ?? defaultIngestUrl(env.NEXT_PUBLIC_URL, env.INGEST_PORT)
		},
		ports: {
			workflows: env.WORKFLOWS_PORT,
			api: env.API_PORT,
			dashboard: env.DASHBOARD_PORT,
			statusPage: env.STATUS_PAGE_PORT,
			ingest: env.INGEST_PORT
		},
		mail: {
			from: env.MAIL_FROM,
			// SMTP_URL wins; otherwise the provider key is used as the SMTP password of the provider.
			smtpUrl: env.SMTP_URL ?? (env.EMAIL_PROVIDER_API_KEY ? providerSmtpUrl(env) : undefined),
			// Outside production with no transport every mail is kept in the local outbox
			// (Settings -> Mail); production never keeps one (it requires a transport).
			localOutbox: !isProduction
		},
		analytics: {
			// ANALYTICS_URL selects Tinybird (analytics/create.ts); otherwise the embedded store.
			embeddedUrl: `file:${path.join(dataDir, 'analytics.db')}`,
			url: env.ANALYTICS_URL,
			// The pipe token: ANALYTICS_API_KEY, or for the embedded store one generated once in
			// DATA_DIR/.analytics-token (production included, so /v0/pipes answers; every container
			// sharing the DATA_DIR volume reads the same one). Tinybird's tokens come from Tinybird.
			apiKey:
				env.ANALYTICS_API_KEY ??
				(env.ANALYTICS_URL
					? tokenFile(env.ANALYTICS_TOKEN_FILE)
					: localSecret(dataDir, '.analytics-token')),
			// One value for both (spec 2.1): the file the analytics setup writes, when set.
			ingestToken:
				env.ANALYTICS_INGEST_TOKEN ??
				(env.ANALYTICS_URL ? tokenFile(env.ANALYTICS_TOKEN_FILE) : undefined),
			// Read again while absent: the stack's services may start before the setup wrote it.
			tokenFile: env.ANALYTICS_TOKEN_FILE
		},
		// Outside production the all-in-one process shares a generated secret with itself.
		cronSecret:
			env.CRON_SECRET ?? (isProduction ? undefined : localSecret(dataDir, '.cron-secret')),
		// Reverse proxies in front of the status site that append to X-Forwarded-For (0 = none:
		// the socket address is the client). Status-page ip-restriction reads this.
		trustedProxyHops: env.TRUSTED_PROXY_HOPS,
		// A page's custom domain must point here in DNS before it is taken (status-page/
		// custom-domain-dns.ts); off for a CDN or proxy answering for such domains.
		customDomainDns: env.CUSTOM_DOMAIN_SKIP_DNS_CHECK
			? null
			: {
					statusHost: new URL(env.STATUS_PAGE_URL).hostname,
					servers: env.CUSTOM_DOMAIN_DNS_SERVERS?.split(',')
						.map((s) => s.trim())
						.filter(Boolean)
				},
		// The issuer is urls.api (OAUTH_ISSUER) and its /mcp the one protected resource.
		oauth: {
			redirectDomains: list(env.OAUTH_REDIRECT_DOMAINS, OAUTH_REDIRECT_DOMAIN_DEFAULTS),
			editorSchemes: list(env.OAUTH_EDITOR_SCHEMES, OAUTH_EDITOR_SCHEME_DEFAULTS),
			// Tests only: a CA (PEM file) trusted for Client ID Metadata Documents, which may
			// then also be served from loopback. Unset, the SSRF guard refuses private addresses.
			testCimdCa: env.OAUTH_TEST_CIMD_CA ? readFileSync(env.OAUTH_TEST_CIMD_CA, 'utf8') : undefined
		},
		// DNS-rebinding protection on /mcp: hostnames accepted besides OAUTH_ISSUER's (Host) and
		// the issuer's, dashboard's and consent origin's (Origin). Comma-separated hostnames.
		mcp: {
			allowedHosts: list(env.MCP_ALLOWED_HOSTS),
			allowedOrigins: list(env.MCP_ALLOWED_ORIGINS)
		},
		// Per credential (API key or OAuth grant), shared by REST and MCP: every REST request and
		// every MCP tool call costs one; failed authentication is limited per client address.
		rateLimit: {
			perCredential: env.RATE_LIMIT_REQUESTS,
			anonymous: env.RATE_LIMIT_ANONYMOUS_REQUESTS,
			oauth: env.RATE_LIMIT_OAUTH_REQUESTS,
			windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS
		},
		// Status site render cache lifetime; 0 turns the cache off (see status-page/public).
		statusPageCacheTtlMs: env.STATUS_PAGE_CACHE_TTL_SECONDS * 1000,
		ai: aiProvider(env),
		// Assistant messages per workspace per window (assistant/budget.ts).
		chatBudget: {
			requests: env.AI_CHAT_BUDGET_REQUESTS,
			windowSeconds: env.AI_CHAT_BUDGET_WINDOW_SECONDS
		},
		slack: slackAgent(env),
		defaultLimits,
		services: parseServices(env.UPSTATE_SERVICES),
		migrateOnStart: env.MIGRATE_ON_START,
		localProbeIntervalMs: env.LOCAL_PROBE_INTERVAL_MS,
		testCrashAt: env.UPSTATE_TEST_CRASH_AT,
		notify: {
			allowPrivateTargets: env.NOTIFY_ALLOW_PRIVATE_TARGETS,
			timeoutMs: env.NOTIFY_TIMEOUT_MS,
			baseUrls: Object.fromEntries(
				Object.entries(NOTIFY_BASE_URL_DEFAULTS).map(([k, v]) => [k, baseUrls[k] ?? v])
			) as Record<keyof typeof NOTIFY_BASE_URL_DEFAULTS, string>,
			telegramBotToken: env.TELEGRAM_BOT_TOKEN,
			twilio: {
				accountSid: env.TWILIO_ACCOUNT_SID,
				authToken: env.TWILIO_AUTH_TOKEN,
				from: env.TWILIO_FROM,
				whatsappFrom: env.TWILIO_WHATSAPP_FROM
			}
		}
	};
}

// The dashboard assistant's model provider (spec 2.1): AI_BASE_URL (any OpenAI-compatible
// endpoint, one model) wins over AI_GATEWAY_API_KEY (one gateway key, model picked by plan).
// null: the chat answers 503.
export const AI_GATEWAY_URL = 'https://ai-gateway.vercel.sh/v1';
export const AI_GATEWAY_MODELS = { free: 'openai/gpt-5-mini', paid: 'openai/gpt-5' };
export type AiProvider = {
	baseUrl: string;
	apiKey: string;
	models: { free: string; paid: string };
};

function aiProvider(env: z.infer<typeof Env>): AiProvider | null {
	if (env.AI_BASE_URL) {
		if (!env.AI_MODEL)
			throw new ConfigError(
				'AI_BASE_URL is set but AI_MODEL is not: set AI_MODEL to a model id that supports tool calling.'
			);
		return {
			baseUrl: env.AI_BASE_URL,
			apiKey: env.AI_API_KEY ?? '',
			models: { free: env.AI_MODEL, paid: env.AI_MODEL }
		};
	}
	if (env.AI_GATEWAY_API_KEY)
		return { baseUrl: AI_GATEWAY_URL, apiKey: env.AI_GATEWAY_API_KEY, models: AI_GATEWAY_MODELS };
	return null;
}

// The chat-workspace agent (server/src/slack): all three Slack app values, or off (its endpoints
// answer 503 naming them). SLACK_API_URL points the Web API calls elsewhere (tests).
export const SLACK_VARIABLES = ['SLACK_SIGNING_SECRET', 'SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET'];
export type SlackConfig = {
	signingSecret: string;
	clientId: string;
	clientSecret: string;
	apiUrl: string;
};

function slackAgent(env: z.infer<typeof Env>): SlackConfig | null {
	if (!env.SLACK_SIGNING_SECRET || !env.SLACK_CLIENT_ID || !env.SLACK_CLIENT_SECRET) return null;
	return {
		signingSecret: env.SLACK_SIGNING_SECRET,
		clientId: env.SLACK_CLIENT_ID,
		clientSecret: env.SLACK_CLIENT_SECRET,
		apiUrl: env.SLACK_API_URL.replace(/\/+$/, '')
	};
}

function providerSmtpUrl(env: z.infer<typeof Env>): string {
	const u = new URL(env.EMAIL_PROVIDER_SMTP_URL);
	if (!u.username) u.username = 'resend';
	u.password = encodeURIComponent(env.EMAIL_PROVIDER_API_KEY ?? '');
	return u.toString();
}

// Outside production a fresh clone has no AUTH_SECRET: keep a random one in the data directory
// so sessions survive restarts without any configuration.
// A secret kept in DATA_DIR. Containers sharing one DATA_DIR volume may start at once, so the
// file appears whole or not at all (written aside, then hard-linked: link fails if it exists)
// and whoever loses the race reads the winner's value.
// ANALYTICS_TOKEN_FILE: written by the analytics setup (analytics/local-setup.ts) into the
// stack's shared volume; absent until the setup has run.
export function tokenFile(file: string | undefined): string | undefined {
	if (!file || !existsSync(file)) return undefined;
	return readFileSync(file, 'utf8').trim() || undefined;
}

function localSecret(dataDir: string, name = '.auth-secret'): string {
	const file = path.join(dataDir, name);
	if (existsSync(file)) return readFileSync(file, 'utf8').trim();
	mkdirSync(dataDir, { recursive: true });
	const secret = randomBytes(32).toString('base64');
	const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
	writeFileSync(aside, secret, { mode: 0o600 });
	try {
		linkSync(aside, file);
		return secret;
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
		return readFileSync(file, 'utf8').trim();
	} finally {
		rmSync(aside, { force: true });
	}
}

// What each service needs in production (spec 1.4.1), checked at start before anything runs:
// the process stops with one line naming the first missing setting and how to set it. `anyOf`
// is satisfied by any one of its variables. The compose files give each service these
// (compose.test.ts checks them against this list).
type Requirement = { anyOf: string[]; services: readonly Service[]; fix: string };
const APPS: readonly Service[] = ['workflows', 'api', 'dashboard', 'status-page', 'ingest'];
export const PRODUCTION_REQUIREMENTS: Requirement[] = [
	{
		anyOf: ['AUTH_SECRET'],
		services: APPS,
		fix: 'set it to a random 32-byte base64 value (openssl rand -base64 32).'
	},
	{
		anyOf: ['SELF_HOST'],
		services: APPS,
		fix: 'set SELF_HOST=true for a self-hosted installation.'
	},
	{
		anyOf: ['NEXT_PUBLIC_URL'],
		services: APPS,
		fix: 'set it to the public URL of the dashboard, e.g. https://upstate.example.com (sign-in links and e-mails point there).'
	},
	{
		anyOf: ['EMAIL_PROVIDER_API_KEY', 'SMTP_URL'],
		services: ['workflows', 'api', 'dashboard', 'status-page'],
		fix: 'magic-link sign-in and alerts are sent by e-mail: set SMTP_URL (e.g. smtp://user:pass@mail.example.com:587) or the e-mail provider key EMAIL_PROVIDER_API_KEY.'
	},
	{
		anyOf: ['CRON_SECRET'],
		services: ['workflows', 'ingest'],
		fix: 'the ingest server authenticates to workflows with it: set the same random value for both (openssl rand -base64 32).'
	}
];

// Services a process runs with what they need; ingest without workflows in the same process
// forwards status changes to WORKFLOWS_URL, which has no sensible default then.
export function requiredVariables(services: readonly Service[]): Requirement[] {
	const required = PRODUCTION_REQUIREMENTS.filter((r) =>
		r.services.some((s) => services.includes(s))
	);
	if (services.includes('ingest') && !services.includes('workflows')) {
		required.push({
			anyOf: ['WORKFLOWS_URL'],
			services: ['ingest'],
			fix: 'the ingest server forwards status changes to the workflows app: set its address, e.g. http://workflows:3000.'
		});
	}
	return required;
}

function checkProduction(env: NodeJS.ProcessEnv, services: readonly Service[]): void {
	for (const r of requiredVariables(services)) {
		if (r.anyOf.some((name) => env[name])) continue;
		const names = r.anyOf.join(' or ');
		throw new ConfigError(
			`${names} ${r.anyOf.length > 1 ? 'are' : 'is'} required in production (services ${services.join(',')}): ${r.fix}`
		);
	}
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
	const parsed = Env.safeParse(env);
	if (!parsed.success) {
		const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
		throw new ConfigError(
			`Invalid configuration: ${lines.join('; ')} (see .env.example for what to set)`
		);
	}
	if (parsed.data.NODE_ENV === 'production')
		checkProduction(env, parseServices(parsed.data.UPSTATE_SERVICES));
	return { ...buildConfig(parsed.data), authProviders: parseAuthProviders(env) };
}

// Dashboard sign-in providers (spec 2.1), named like Auth.js: AUTH_GITHUB_ID/_SECRET,
// AUTH_GOOGLE_ID/_SECRET, and for any OpenID Connect issuer AUTH_<NAME>_ID/_SECRET/_ISSUER
// with an optional AUTH_<NAME>_NAME for its button. GitHub first, then Google, then by name.
export type AuthProviderConfig = {
	id: string;
	name: string;
	kind: 'github' | 'google' | 'oidc';
	clientId: string;
	clientSecret: string;
	issuer?: string;
};
const PRESET_NAMES: Record<string, string> = { github: 'GitHub', google: 'Google' };

function parseAuthProviders(env: NodeJS.ProcessEnv): AuthProviderConfig[] {
	const found = new Map<string, Record<string, string>>();
	for (const [key, value] of Object.entries(env)) {
		const m = /^AUTH_([A-Z0-9]+)_(ID|SECRET|ISSUER|NAME)$/.exec(key);
		if (!m || !value) continue;
		found.set(m[1], { ...found.get(m[1]), [m[2]]: value });
	}
	const providers = [...found].map(([key, v]): AuthProviderConfig => {
		const id = key.toLowerCase();
		const kind = id === 'github' || id === 'google' ? id : 'oidc';
		for (const [needs, what] of [
			['ID', 'the client ID'],
			['SECRET', 'the client secret']
		]) {
			if (!v[needs])
				throw new ConfigError(
					`AUTH_${key}_${needs} is required to sign in with ${key}: set ${what} of the OAuth app registered at the provider (README "Sign-in").`
				);
		}
		if (kind === 'oidc' && !z.url().safeParse(v.ISSUER).success)
			throw new ConfigError(
				`AUTH_${key}_ISSUER must be the URL of an OpenID Connect issuer (the address before /.well-known/openid-configuration); only GitHub and Google need none.`
			);
		return {
			id,
			name: v.NAME ?? PRESET_NAMES[id] ?? key.charAt(0) + key.slice(1).toLowerCase(),
			kind,
			clientId: v.ID,
			clientSecret: v.SECRET,
			issuer: kind === 'oidc' ? v.ISSUER : undefined
		};
	});
	const rank = (p: AuthProviderConfig) => (p.id === 'github' ? 0 : p.id === 'google' ? 1 : 2);
	return providers.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
}

// `npm run doctor`: the services' own settings without production's start-up requirements (it
// is there to say what is missing), and the compose stacks' ANALYTICS_TOKEN as the pipes token.
export function loadDiagnosisConfig(env: NodeJS.ProcessEnv = process.env): Config {
	return loadConfig({
		...env,
		ANALYTICS_API_KEY: env.ANALYTICS_API_KEY || env.ANALYTICS_TOKEN,
		NODE_ENV: 'development'
	});
}

// db-migrate reads only the database settings; it runs before (and without) the app secrets.
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): {
	databaseUrl: string;
	databaseAuthToken?: string;
} {
	const parsed = Env.pick({ DATA_DIR: true, DATABASE_URL: true, DATABASE_AUTH_TOKEN: true }).parse(
		env
	);
	return {
		databaseUrl: parsed.DATABASE_URL ?? defaultDatabaseUrl(path.resolve(parsed.DATA_DIR)),
		databaseAuthToken: parsed.DATABASE_AUTH_TOKEN
	};
}

function defaultIngestUrl(dashboard: string, port: number): string {
	const u = new URL(dashboard);
	return `http://${u.hostname}:${port}`;
}

function defaultDatabaseUrl(dataDir: string): string {
	return `file:${path.join(dataDir, 'upstate.db')}`;
}

// The SvelteKit node adapter reads its settings from the environment. Both apps take the
// request's scheme from X-Forwarded-Proto (main.ts sets it to http when no proxy did), so the
// origin they check form posts against is the one the browser used.
export function configureSvelteKitAdapters(env: NodeJS.ProcessEnv = process.env): void {
	env.UPSTATE_DASHBOARD_PROTOCOL_HEADER ??= 'x-forwarded-proto';
	env.UPSTATE_STATUS_PAGE_PROTOCOL_HEADER ??= 'x-forwarded-proto';
}

// `npm run analytics:setup` (the compose profile's analytics-setup): the local container's URL
// and where to write the workspace token for the app services (ANALYTICS_TOKEN_FILE).
export function loadAnalyticsSetupConfig(env: NodeJS.ProcessEnv = process.env): {
	url: string;
	tokenFile?: string;
} {
	return {
		url: env.ANALYTICS_URL || 'http://localhost:7181',
		tokenFile: env.ANALYTICS_TOKEN_FILE || undefined
	};
}

// The Tinybird SDK's generator reads tinybird.config.json, which takes the URL and token from
// the environment: set them for that call only, then put back what was there.
export async function withTinybirdEnv<T>(
	vars: { url: string; token: string },
	fn: () => Promise<T>
): Promise<T> {
	const saved = { url: process.env.ANALYTICS_URL, key: process.env.ANALYTICS_API_KEY };
	process.env.ANALYTICS_URL = vars.url;
	process.env.ANALYTICS_API_KEY = vars.token;
	try {
		return await fn();
	} finally {
		for (const [key, value] of [
			['ANALYTICS_URL', saved.url],
			['ANALYTICS_API_KEY', saved.key]
		] as const) {
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
		}
	}
}
