import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '@libsql/client';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { loadDiagnosisConfig } from './config.ts';

// `npm run doctor`: checks a running installation from outside and prints one line per check,
// with what to do when it fails. Reads the same settings as the services (.env), each address
// overridable by a flag (e.g. --workflows-url http://localhost:3000 from the stack's host).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PIPE = 'endpoint__http_metrics_1d__v1';
const CRON_WINDOW_MS = 10 * 60_000; // the health cron runs every 5 minutes (spec 8)
const HEALTH_WINDOW_MS = 15 * 60_000; // private location health window (spec 3.3)
const TIMEOUT_MS = 5000;

export type DoctorOptions = {
	databaseUrl: string;
	databaseAuthToken?: string;
	// The analytics HTTP API: ANALYTICS_URL (Tinybird) or, for the embedded store, the API server.
	analyticsUrl: string;
	analyticsToken?: string;
	workflowsUrl: string;
	cronSecret?: string;
	smtpUrl?: string;
	statusPageUrl: string;
	now?: () => Date;
};

export type Finding = { status: 'ok' | 'warn' | 'fail'; check: string; detail: string };

export async function runDoctor(opts: DoctorOptions): Promise<Finding[]> {
	const now = opts.now ?? (() => new Date());
	const findings: Finding[] = [];
	const ok = (check: string, detail: string) => findings.push({ status: 'ok', check, detail });
	const warn = (check: string, detail: string) => findings.push({ status: 'warn', check, detail });
	const fail = (check: string, detail: string) => findings.push({ status: 'fail', check, detail });

	// ---- database: reachable and migrated; then each private location's last report ----
	const db = await openDatabase(opts);
	if ('error' in db) fail('database', db.error);
	else {
		try {
			const applied = new Set(
				(
					await db.client.execute(
						'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL'
					)
				).rows.map((r) => String(r.migration_name))
			);
			const pending = migrationNames().filter((m) => !applied.has(m));
			if (pending.length === 0)
				ok(
					'database',
					`reachable at ${redact(opts.databaseUrl)}, ${applied.size} migrations applied`
				);
			else
				fail(
					'database',
					`${pending.length} migrations not applied (first ${pending[0]}): run db-migrate (docker compose run --rm db-migrate, or npm run db:migrate)`
				);
			const locations = await db.client.execute(
				'SELECT name, last_seen_at, built_in FROM private_location ORDER BY id'
			);
			for (const row of locations.rows) {
				const name = `private location "${String(row.name)}"`;
				const seen = row.last_seen_at === null ? null : toDate(row.last_seen_at);
				if (!seen)
					warn(
						name,
						row.built_in
							? 'the built-in Local probe has not reported: it runs only in the all-in-one process (npm start)'
							: 'no probe has reported yet: run the probe with this location\u2019s key (its page in the dashboard has the command)'
					);
				else if (now().getTime() - seen.getTime() > HEALTH_WINDOW_MS)
					fail(
						name,
						`last report ${ago(seen, now())}: the probe is down or cannot reach the ingest server (port 8081); check its log`
					);
				else ok(name, `last report ${ago(seen, now())}`);
			}
		} catch (err) {
			if (/no such table/i.test(message(err)))
				fail(
					'database',
					`reachable at ${redact(opts.databaseUrl)} but not migrated: run db-migrate (docker compose run --rm db-migrate, or npm run db:migrate)`
				);
			else fail('database', `query failed: ${message(err)}`);
		} finally {
			db.client.close();
		}
	}

	// ---- analytics: the verification query of spec 1.4.4 ----
	findings.push(await checkAnalytics(opts));

	// ---- workflows: reachable, its health cron recent, and CRON_SECRET accepted ----
	const health = await get(`${opts.workflowsUrl}/healthz`);
	if ('error' in health)
		fail(
			'workflows',
			`cannot reach ${opts.workflowsUrl} (${health.error}): start the workflows service or set --workflows-url / WORKFLOWS_URL`
		);
	else {
		const body = health.json as {
			startedAt?: string;
			lastRuns?: Record<string, string>;
		} | null;
		const last = body?.lastRuns?.['private-location-health'];
		const started = body?.startedAt ? new Date(body.startedAt) : null;
		if (last && now().getTime() - new Date(last).getTime() <= CRON_WINDOW_MS)
			ok('health cron', `private-location-health ran ${ago(new Date(last), now())}`);
		else if (!last && started && now().getTime() - started.getTime() < CRON_WINDOW_MS)
			warn(
				'health cron',
				`not run yet: the workflows app started ${ago(started, now())} and runs it every 5 minutes`
			);
		else
			fail(
				'health cron',
				`private-location-health has not run in the last 10 minutes (last ${last ? ago(new Date(last), now()) : 'never'}): keep the workflows app running, or call GET ${opts.workflowsUrl}/cron/private-location-health with Authorization: <CRON_SECRET> every 5 minutes`
			);
		if (!opts.cronSecret)
			fail('workflows', 'CRON_SECRET is not set here: set it to the value the stack uses');
		else {
			const authed = await get(`${opts.workflowsUrl}/cron/private-location-health`, {
				authorization: opts.cronSecret
			});
			if ('error' in authed) fail('workflows', `cron call failed: ${authed.error}`);
			else if (authed.status === 401)
				fail(
					'workflows',
					'reachable, but it refuses this CRON_SECRET: use one value for workflows, private-location and the cron caller'
				);
			else if (authed.status !== 200)
				fail('workflows', `the cron call answered ${authed.status}: see the workflows log`);
			else ok('workflows', `reachable at ${opts.workflowsUrl}, CRON_SECRET accepted`);
		}
	}

	// ---- mail transport ----
	if (!opts.smtpUrl)
		fail(
			'mail',
			'no mail transport: sign-in links are only printed to the log; set SMTP_URL or EMAIL_PROVIDER_API_KEY'
		);
	else {
		const transport = nodemailer.createTransport({
			url: opts.smtpUrl,
			connectionTimeout: TIMEOUT_MS,
			greetingTimeout: TIMEOUT_MS
		} as SMTPTransport.Options);
		try {
			await transport.verify();
			ok('mail', `${redact(opts.smtpUrl)} accepts a connection`);
		} catch (err) {
			fail(
				'mail',
				`${redact(opts.smtpUrl)} refused: ${message(err)}; check SMTP_URL (host, port, user, password) or EMAIL_PROVIDER_API_KEY`
			);
		} finally {
			transport.close();
		}
	}

	// ---- status-page origin ----
	const status = await get(opts.statusPageUrl);
	if ('error' in status)
		fail(
			'status pages',
			`cannot reach ${opts.statusPageUrl} (${status.error}): start the status-page service, or fix STATUS_PAGE_URL`
		);
	else if (status.status >= 500)
		fail(
			'status pages',
			`${opts.statusPageUrl} answered ${status.status}: see the status-page log`
		);
	else ok('status pages', `${opts.statusPageUrl} answers`);

	return findings;
}

// 200: works. A 404 is one answer for three causes (spec 1.4.3, 3.4); the token's deployments
// tell them apart: none (nothing deployed, or the token is another workspace's), one in Staging
// (not promoted), or a Live one without the pipe.
export async function checkAnalytics(
	opts: Pick<DoctorOptions, 'analyticsUrl' | 'analyticsToken'>
): Promise<Finding> {
	const check = 'analytics';
	if (!opts.analyticsToken)
		return {
			status: 'fail',
			check,
			detail:
				'no analytics token: run the analytics setup (npm run analytics:setup), then set ANALYTICS_TOKEN (or ANALYTICS_API_KEY and ANALYTICS_INGEST_TOKEN) to the token it prints'
		};
	const auth = { authorization: `Bearer ${opts.analyticsToken}` };
	const pipe = await get(`${opts.analyticsUrl}/v0/pipes/${PIPE}.json?monitorId=1`, auth);
	if ('error' in pipe)
		return {
			status: 'fail',
			check,
			detail: `cannot reach ${opts.analyticsUrl} (${pipe.error}): start the analytics container (ANALYTICS_URL), or for the embedded store the API server (--api-url)`
		};
	if (pipe.status === 200)
		return { status: 'ok', check, detail: `pipe ${PIPE} answers 200 at ${opts.analyticsUrl}` };
	if (pipe.status === 401 || pipe.status === 403)
		return {
			status: 'fail',
			check,
			detail: `the token is refused (${pipe.status}): set ANALYTICS_API_KEY to the token the analytics setup prints (npm run analytics:setup; the analytics CLI's local info token)`
		};
	if (pipe.status !== 404)
		return { status: 'fail', check, detail: `pipe ${PIPE} answered ${pipe.status}` };
	const deployments = await get(`${opts.analyticsUrl}/v1/deployments`, auth);
	const list =
		'error' in deployments || deployments.status !== 200
			? null
			: ((deployments.json as { deployments?: Array<{ status?: string; live?: boolean }> })
					?.deployments ?? []);
	if (list && list.some((d) => d.live))
		return {
			status: 'fail',
			check,
			detail: `the Live deployment has no pipe ${PIPE}: deploy this version's resources (npm run analytics:setup)`
		};
	if (list && list.length > 0)
		return {
			status: 'fail',
			check,
			detail: `the deployment is in Staging, not Live (spec 3.4): promote it (tb deployment promote) or run npm run analytics:setup again, then query again`
		};
	return {
		status: 'fail',
		check,
		detail: `pipe ${PIPE} does not exist for this token: nothing is deployed, or the token belongs to another workspace (spec 1.4.3) — run npm run analytics:setup, which deploys and prints the project workspace's token (the analytics CLI's local info token, not the container's token listing)`
	};
}

async function openDatabase(
	opts: DoctorOptions
): Promise<{ client: ReturnType<typeof createClient> } | { error: string }> {
	if (opts.databaseUrl.startsWith('file:')) {
		const file = opts.databaseUrl.slice('file:'.length);
		if (!existsSync(file))
			return {
				error: `no database file at ${file}: start Upstate once (it migrates) or fix DATABASE_URL / DATA_DIR`
			};
	}
	try {
		const client = createClient({ url: opts.databaseUrl, authToken: opts.databaseAuthToken });
		await client.execute('SELECT 1');
		return { client };
	} catch (err) {
		return {
			error: `cannot reach ${redact(opts.databaseUrl)} (${message(err)}): start the db service or fix DATABASE_URL`
		};
	}
}

function migrationNames(): string[] {
	const dir = path.join(root, 'prisma', 'migrations');
	return readdirSync(dir)
		.filter((d) => statSync(path.join(dir, d)).isDirectory())
		.sort();
}

async function get(
	url: string,
	headers: Record<string, string> = {}
): Promise<{ status: number; json: unknown } | { error: string }> {
	try {
		const res = await fetch(url, {
			headers,
			redirect: 'manual',
			signal: AbortSignal.timeout(TIMEOUT_MS)
		});
		const text = await res.text();
		let json: unknown = null;
		try {
			json = JSON.parse(text);
		} catch {
			json = null;
		}
		return { status: res.status, json };
	} catch (err) {
		return { error: message(err) };
	}
}

const message = (err: unknown) =>
	err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
const toDate = (v: unknown) => (typeof v === 'number' ? new Date(v) : new Date(String(v)));
function ago(then: Date, now: Date): string {
	const s = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
	if (s < 120) return `${s} s ago`;
	if (s < 7200) return `${Math.round(s / 60)} min ago`;
	return `${Math.round(s / 3600)} h ago`;
}

export function formatFinding(f: Finding): string {
	return `${f.status.toUpperCase().padEnd(4)}  ${f.check}: ${f.detail}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const { values } = parseArgs({
		options: {
			'database-url': { type: 'string' },
			'analytics-url': { type: 'string' },
			'workflows-url': { type: 'string' },
			'status-page-url': { type: 'string' },
			'api-url': { type: 'string' }
		}
	});
	const config = loadDiagnosisConfig();
	const findings = await runDoctor({
		databaseUrl: values['database-url'] ?? config.databaseUrl,
		databaseAuthToken: config.databaseAuthToken,
		analyticsUrl:
			values['analytics-url'] ?? config.analytics.url ?? values['api-url'] ?? config.urls.api,
		analyticsToken: config.analytics.apiKey,
		workflowsUrl: values['workflows-url'] ?? config.urls.workflows,
		cronSecret: config.cronSecret,
		smtpUrl: config.mail.smtpUrl,
		statusPageUrl: values['status-page-url'] ?? config.urls.statusPage
	});
	for (const f of findings) console.log(formatFinding(f));
	process.exit(findings.some((f) => f.status === 'fail') ? 1 : 0);
}
