// Both compose stacks, built and run for real with podman + podman-compose (scripts/stack-test.sh
// prepares the machine and calls this). For each stack: build the images, bring it up from a
// .env holding only AUTH_SECRET, CRON_SECRET and a mail setting, sign in by magic link (a real
// SMTP sink on the host), and for the full stack create a monitor and a private location over
// REST, run the probe image against private-location:8080 and see its results through the API,
// the dashboard and the status page; then stop and start the stack and find every row still
// there, and run db-migrate again. Prints one line per phase with its duration.
//
// What differs from `docker compose up` with the files as shipped (and only this):
// - `db`: the libSQL server image cannot be pulled here, so every service opens the database as
//   a libSQL file on the stack's shared volume (DATABASE_URL=file:/data/upstate.db) and `db`
//   becomes an idle app container. The app speaks the same libSQL either way.
// - Host ports: each published port is moved to a free one (other processes share this
//   machine), and the localhost URLs the compose defaults point at follow it.
// - Ordering: podman-compose 1.0 ignores `condition: service_completed_successfully`, so the
//   script starts db, waits for db-migrate to exit 0, then starts the rest, as Compose does.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { freePort, launchBrowser, signIn, startSmtp, watchContext } from '../e2e/harness.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'upstate-stack-'));
const timings: Array<[string, number]> = [];
const started = performance.now();

function log(line: string): void {
	console.log(`[stack-test] ${line}`);
}

async function phase<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
	const t0 = performance.now();
	try {
		return await fn();
	} finally {
		const seconds = (performance.now() - t0) / 1000;
		timings.push([name, seconds]);
		log(`phase=${name} seconds=${seconds.toFixed(1)}`);
	}
}

function run(cmd: string, args: string[], opts: { cwd?: string; allowFail?: boolean } = {}) {
	const r = spawnSync(cmd, args, {
		cwd: opts.cwd ?? root,
		encoding: 'utf8',
		maxBuffer: 256 << 20
	});
	if (r.status !== 0 && !opts.allowFail)
		throw new Error(
			`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`
		);
	return { code: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}

async function until<T>(
	what: string,
	seconds: number,
	fn: () => Promise<T | undefined>
): Promise<T> {
	const deadline = Date.now() + seconds * 1000;
	let last: unknown;
	while (Date.now() < deadline) {
		try {
			const value = await fn();
			if (value !== undefined) return value;
		} catch (err) {
			last = err;
		}
		await new Promise((r) => setTimeout(r, 1000));
	}
	throw new Error(`timed out after ${seconds}s waiting for ${what}${last ? `: ${last}` : ''}`);
}

function check(ok: unknown, what: string): void {
	if (!ok) throw new Error(`check failed: ${what}`);
	log(`ok ${what}`);
}

// ---- images ----

// Both images at once: one build's downloads overlap the other's CPU work.
async function buildImages(): Promise<void> {
	const common = [
		'build',
		'--pull=never',
		'--network=host',
		'--format=docker',
		'-v',
		'/etc/ssl/certs:/etc/ssl/certs:ro',
		'--build-arg',
		'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt'
	];
	await Promise.all([
		runAsync('podman', [...common, '-t', 'upstate:local', '.']),
		runAsync('podman', [...common, '-f', 'probe/Dockerfile', '-t', 'upstate-probe:local', '.'])
	]);
	for (const image of ['upstate:local', 'upstate-probe:local']) {
		const bytes = Number(run('podman', ['image', 'inspect', image, '--format', '{{.Size}}']).out);
		log(`image=${image} size=${(bytes / 1e6).toFixed(0)}MB`);
	}
}

// For commands that need this process meanwhile (the SMTP sink lives here: a synchronous run
// would leave mail unanswered until it ends).
function runAsync(
	cmd: string,
	args: string[],
	opts: { allowFail?: boolean } = {}
): Promise<{ code: number; out: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		const keep = (d: Buffer) => {
			out = (out + d.toString()).slice(-16000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.once('error', reject);
		child.once('exit', (code) =>
			code === 0 || opts.allowFail
				? resolve({ code: code ?? 1, out })
				: reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`))
		);
	});
}

// ---- the stack under test ----

type Service = {
	image?: string;
	build?: unknown;
	command?: string[];
	environment?: Record<string, string>;
	ports?: string[];
	volumes?: string[];
	profiles?: string[];
	healthcheck?: { test: string[] };
};

type Stack = {
	project: string;
	dir: string;
	cronSecret: string;
	services: string[];
	// service -> container port -> host port
	port: (service: string, inside: number) => number;
	url: (service: string, inside: number) => string;
};

async function prepare(file: string, project: string, smtpPort: number): Promise<Stack> {
	const doc = structuredClone(
		parse(readFileSync(path.join(root, file), 'utf8'), { merge: true })
	) as { services: Record<string, Service>; volumes: Record<string, unknown> } & Record<
		string,
		unknown
	>;
	for (const key of Object.keys(doc)) if (key.startsWith('x-')) delete doc[key];
	const volume = Object.keys(doc.volumes).find((v) => v !== 'db-data') ?? 'data';
	const moved = new Map<string, Map<number, number>>();
	const rewrites: Array<[string, string]> = [];
	for (const [name, s] of Object.entries(doc.services)) {
		if (s.profiles) {
			delete doc.services[name]; // opt-in profiles stay off, as with `docker compose up`
			continue;
		}
		delete s.build;
		const ports = new Map<number, number>();
		s.ports = await Promise.all(
			(s.ports ?? []).map(async (p) => {
				const [outside, inside] = p.split(':').map(Number);
				const free = await freePort();
				ports.set(inside, free);
				rewrites.push([`http://localhost:${outside}`, `http://127.0.0.1:${free}`]);
				return `${free}:${inside}`;
			})
		);
		moved.set(name, ports);
	}
	doc.services.db = {
		image: 'upstate:local',
		command: ['node', '-e', 'setInterval(() => {}, 1 << 30)'],
		volumes: [`${volume}:/data`],
		healthcheck: { test: ['NONE'] }
	};
	delete doc.volumes['db-data'];
	for (const [name, s] of Object.entries(doc.services)) {
		if (name === 'db' || s.image !== 'upstate:local') continue;
		s.volumes = [`${volume}:/data`];
		s.environment = Object.fromEntries(
			Object.entries(s.environment ?? {}).map(([k, v]) => {
				let value = String(v);
				for (const [from, to] of rewrites) value = value.replaceAll(`:-${from}}`, `:-${to}}`);
				return [k, value];
			})
		);
		s.environment.DATABASE_URL = 'file:/data/upstate.db';
	}
	const dir = mkdtempSync(path.join(work, `${project}-`));
	// YAML 1.1 quoting: podman-compose reads 1.1, where a bare `no` is false.
	writeFileSync(path.join(dir, 'docker-compose.yaml'), stringify(doc, { version: '1.1' }));
	// The operator's .env: two secrets and a mail setting, nothing else.
	const cronSecret = run('openssl', ['rand', '-base64', '32']).out.trim();
	writeFileSync(
		path.join(dir, '.env'),
		[
			`AUTH_SECRET=${run('openssl', ['rand', '-base64', '32']).out.trim()}`,
			`CRON_SECRET=${cronSecret}`,
			`SMTP_URL=smtp://host.containers.internal:${smtpPort}`,
			''
		].join('\n')
	);
	const port = (service: string, inside: number) => {
		const p = moved.get(service)?.get(inside);
		if (!p) throw new Error(`${service} publishes no port ${inside}`);
		return p;
	};
	return {
		project,
		dir,
		cronSecret,
		services: Object.keys(doc.services),
		port,
		url: (service, inside) => `http://127.0.0.1:${port(service, inside)}`
	};
}

const compose = (stack: Stack, args: string[], allowFail = false) =>
	run('podman-compose', ['-p', stack.project, ...args], { cwd: stack.dir, allowFail });
const container = (stack: Stack, service: string) => `${stack.project}_${service}_1`;

// Creates the containers, then starts them in Compose's order: db, db-migrate to completion,
// then the rest. Returns db-migrate's log.
function up(stack: Stack): string {
	compose(stack, ['up', '--no-start']);
	run('podman', ['start', container(stack, 'db')]);
	const migrate = run('podman', ['start', '--attach', container(stack, 'db-migrate')], {
		allowFail: true
	});
	if (migrate.code !== 0) throw new Error(`db-migrate failed:\n${migrate.out}`);
	const rest = stack.services.filter((s) => s !== 'db' && s !== 'db-migrate');
	run('podman', ['start', ...rest.map((s) => container(stack, s))]);
	return migrate.out;
}

// Ready means the page a person opens first answers: for the dashboard, a 200 sign-in page with
// its e-mail field and every script and style it links answering 200 (a redirect or an error page
// served while the service warms up is not ready).
async function waitHealthy(stack: Stack, probes: Array<[string, number, string]>): Promise<void> {
	for (const [service, inside, pathname] of probes)
		await until(`${service} on port ${inside}`, 120, async () => {
			const base = stack.url(service, inside);
			const res = await fetch(`${base}${pathname}`, { redirect: 'manual' });
			if (pathname !== '/sign-in') return res.status < 500 ? true : undefined;
			const html = await res.text();
			if (res.status !== 200 || !html.includes('name="email"')) return undefined;
			const assets = new Set(html.match(/\/_app\/immutable\/[\w./-]+/g) ?? []);
			for (const asset of assets)
				if ((await fetch(`${base}${asset}`)).status !== 200) return undefined;
			return true;
		});
}

// signIn, and when it fails, what the browser was showing and saw go wrong (the stack's logs follow
// from the caller). The one retry: the sign-in page failed to load in the browser only because a
// request never got an answer (a connection dropped by the rootless port forwarder), while the
// server answered every request it got. Any answer >= 500, or a script error with no dropped
// request, fails at once.
async function signInOrExplain(page: Page, args: Parameters<typeof signIn>[1]): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		const seen: string[] = [];
		const stop = watchContext(page.context(), { report: (line) => seen.push(line) });
		try {
			await page.goto(`${args.dashboard}/sign-in`, { waitUntil: 'networkidle' });
			const ready = await page
				.getByLabel('E-mail')
				.waitFor({ timeout: 10_000 })
				.then(
					() => true,
					() => false
				);
			// Console errors that follow a dropped request are its echo; a 5xx is the server's fault.
			const dropped =
				seen.some((s) => s.startsWith('request failed')) &&
				!seen.some((s) => s.startsWith('HTTP '));
			if (!ready && dropped && attempt === 1) {
				log(`sign-in page did not load in the browser, loading it once more: ${seen.join('; ')}`);
				continue;
			}
			await signIn(page, args);
			return;
		} catch (err) {
			const shown = await page
				.evaluate(() => document.body?.innerText ?? '')
				.catch((e: unknown) => `(page unreadable: ${e})`);
			const again = await fetch(`${args.dashboard}/sign-in`, { redirect: 'manual' }).then(
				async (r) => `${r.status} ${(await r.text()).length} bytes`,
				(e: unknown) => `${e}`
			);
			throw new Error(
				`sign-in failed at ${page.url()}: ${(err as Error).message}\n  page showed: ${shown.replace(/\s+/g, ' ').slice(0, 600)}\n  GET /sign-in now: ${again}\n  the browser saw: ${seen.join('\n    ') || 'nothing wrong'}`,
				{ cause: err }
			);
		} finally {
			stop();
		}
	}
}

function dumpLogs(stack: Stack): void {
	for (const s of stack.services) {
		const { out } = run('podman', ['logs', container(stack, s)], { allowFail: true });
		const lines = out.split('\n');
		// Errors wherever they are, then the last lines.
		const errors = lines.filter((l) => /error|fail|refused|denied/i.test(l)).slice(-30);
		console.log(`---- ${s} ----\n${[...errors, '...', ...lines.slice(-15)].join('\n')}`);
	}
}

// `volumes`: the end of the test, leaving nothing behind (podman-compose 1.0 keeps the network).
function down(stack: Stack, volumes: boolean): void {
	compose(stack, ['down', ...(volumes ? ['-v'] : [])], true);
	if (volumes) run('podman', ['network', 'rm', `${stack.project}_default`], { allowFail: true });
}

// ---- the checks ----

async function createApiKey(page: Page, dashboard: string): Promise<string> {
	await page.goto(`${dashboard}/settings/api-keys`);
	await page.getByLabel('Key name').fill('stack test');
	await page.getByLabel('Scope').selectOption('write');
	await page.getByRole('button', { name: 'Create API key' }).click();
	return page.locator('#new-key').inputValue();
}

function restClient(base: string, key: string) {
	return async <T>(method: string, pathname: string, body?: unknown): Promise<T> => {
		const res = await fetch(`${base}${pathname}`, {
			method,
			headers: { 'x-service-key': key, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${text}`);
		return JSON.parse(text) as T;
	};
}

async function fullStack(browser: Browser, smtp: Awaited<ReturnType<typeof startSmtp>>) {
	const stack = await prepare('docker-compose.yaml', 'upstate-stacktest-full', smtp.port);
	const dashboard = stack.url('dashboard', 3002);
	const api = stack.url('server', 3001);
	const statusSite = stack.url('status-page', 3003);
	const probe = `${stack.project}-probe`;
	try {
		const firstMigrate = await phase('full.up', async () => {
			const out = up(stack);
			await waitHealthy(stack, [
				['workflows', 3000, '/healthz'],
				['server', 3001, '/healthz'],
				['dashboard', 3002, '/sign-in'],
				['status-page', 3003, '/'],
				['private-location', 8080, '/']
			]);
			return out;
		});
		check(/status=applied/.test(firstMigrate), 'db-migrate applied the migrations');

		const page = await browser.newPage();
		const email = 'operator@stack.test';
		await phase('full.sign-in', () => signInOrExplain(page, { dashboard, smtp, email }));
		const key = await createApiKey(page, dashboard);
		check(key.length > 10, 'an API key created in the dashboard');
		const rest = restClient(api, key);

		const workspace = await rest<{ plan: string; limits: { periodicity: string[] } }>(
			'GET',
			'/v1/workspace'
		).catch(() => null);
		if (workspace) check(workspace.plan === 'self-host', 'the workspace is on the self-host plan');

		const monitor = await rest<{ id: number }>('POST', '/v1/monitors', {
			type: 'http',
			name: 'Workflows health',
			periodicity: '30s',
			active: true,
			url: 'http://workflows:3000/healthz'
		});
		// ICMP too: the probe image runs the system ping as its unprivileged user.
		const ping = await rest<{ id: number }>('POST', '/v1/monitors', {
			type: 'icmp',
			name: 'Workflows ping',
			periodicity: '30s',
			active: true,
			uri: 'workflows'
		});
		const location = await rest<{ id: number; token: string }>('POST', '/v1/private-locations', {
			name: 'Stack test probe',
			monitor_ids: [monitor.id, ping.id]
		});
		const slug = `stack-${Date.now()}`;
		const statusPage = await rest<{ id: number }>('POST', '/v1/status-pages', {
			title: 'Stack test',
			slug
		});
		await rest('POST', `/v1/status-pages/${statusPage.id}/components`, {
			type: 'monitor',
			name: 'Workflows',
			monitor_id: monitor.id
		});

		await phase('full.probe-results', async () => {
			run('podman', [
				'run',
				'-d',
				'--name',
				probe,
				'--network',
				`${stack.project}_default`,
				'-e',
				`SERVICE_KEY=${location.token}`,
				'-e',
				'SERVICE_INGEST_URL=http://private-location:8080',
				'upstate-probe:local'
			]);
			await until('the probe ingesting a check', 120, async () => {
				const status = await rest<{
					status: string;
					regions: Array<{ privateLocationId: number; status: string; lastSeenAt: string | null }>;
				}>('GET', `/v1/monitors/${monitor.id}/status`);
				const here = status.regions.find((r) => r.privateLocationId === location.id);
				return here?.status === 'active' && here.lastSeenAt ? status : undefined;
			});
		});
		const probeLog = run('podman', ['logs', probe]).out;
		check(
			/checked monitor=\d+ .*success status=200/.test(probeLog),
			'the probe logs an ingested check with its outcome and status code (spec 1.4.6)'
		);
		const seen = await rest<{ last_seen_at: string | null }>(
			'GET',
			`/v1/private-locations/${location.id}`
		);
		check(seen.last_seen_at !== null, 'the private location has a last report over REST');
		const pinged = await until('an ICMP check from the probe image', 60, async () => {
			const summary = await rest<{ success: number }>('GET', `/v1/monitors/${ping.id}/summary`);
			return summary.success >= 1 ? summary : undefined;
		});
		check(pinged.success >= 1, 'the probe image pings (ICMP check succeeded)');
		const before = await rest<{ success: number }>('GET', `/v1/monitors/${monitor.id}/summary`);
		check(before.success >= 1, `the results are in the analytics store (${before.success} ok)`);
		await page.goto(`${dashboard}/monitors/${monitor.id}`);
		check((await page.content()).includes('Workflows health'), 'the dashboard shows the monitor');
		const statusHtml = await until('the status page showing the monitor', 60, async () => {
			const res = await fetch(`${statusSite}/${slug}`);
			const html = await res.text();
			return res.ok && html.includes('Workflows') ? html : undefined;
		});
		check(/operational/i.test(statusHtml), 'the status page shows the component operational');

		// The doctor, run where the stack's names resolve (the server container: its database file,
		// mail setting and pipes token), with the operator's CRON_SECRET.
		const doctor = await runAsync(
			'podman',
			[
				'exec',
				'-e',
				`CRON_SECRET=${stack.cronSecret}`,
				container(stack, 'server'),
				'node',
				'server/src/doctor.ts',
				'--workflows-url',
				'http://workflows:3000',
				'--status-page-url',
				'http://status-page:3003',
				'--api-url',
				'http://server:3001'
			],
			{ allowFail: true }
		);
		for (const line of doctor.out.trim().split('\n')) log(`doctor | ${line}`);
		check(doctor.code === 0, 'npm run doctor finds nothing failing in the running stack');

		await phase('full.restart', async () => {
			run('podman', ['rm', '-f', '-v', probe]);
			down(stack, false);
			const again = up(stack);
			check(/status=up-to-date/.test(again), 'db-migrate is idempotent on restart');
			await waitHealthy(stack, [
				['server', 3001, '/healthz'],
				['dashboard', 3002, '/sign-in'],
				['status-page', 3003, '/']
			]);
		});
		const kept = await rest<{ data: Array<{ id: number }> }>('GET', '/v1/monitors');
		check(
			kept.data.some((m) => m.id === monitor.id),
			'the monitor is still there after a restart'
		);
		const locations = await rest<{ data: Array<{ id: number }> }>('GET', '/v1/private-locations');
		check(
			locations.data.some((l) => l.id === location.id),
			'the private location is still there'
		);
		await page.goto(`${dashboard}/monitors`);
		check(new URL(page.url()).pathname === '/monitors', 'the session survives the restart');
		const after = await rest<{ success: number }>('GET', `/v1/monitors/${monitor.id}/summary`);
		check(after.success >= before.success, 'the check results are still there');
		check((await fetch(`${statusSite}/${slug}`)).ok, 'the status page is still served');
		const third = run('podman', ['start', '--attach', container(stack, 'db-migrate')]);
		check(/status=up-to-date/.test(third.out), 'db-migrate run once more applies nothing');
		await page.close();
	} catch (err) {
		dumpLogs(stack);
		console.log(`---- probe ----\n${run('podman', ['logs', probe], { allowFail: true }).out}`);
		throw err;
	} finally {
		run('podman', ['rm', '-f', '-v', probe], { allowFail: true });
		down(stack, true);
	}
}

async function lightStack(browser: Browser, smtp: Awaited<ReturnType<typeof startSmtp>>) {
	const stack = await prepare('docker-compose.light.yaml', 'upstate-stacktest-light', smtp.port);
	const dashboard = stack.url('dashboard', 3000);
	const statusSite = stack.url('status-page', 3001);
	try {
		const first = await phase('light.up', async () => {
			const out = up(stack);
			await waitHealthy(stack, [
				['dashboard', 3000, '/sign-in'],
				['status-page', 3001, '/']
			]);
			return out;
		});
		check(/status=applied/.test(first), 'light: db-migrate applied the migrations');
		const page = await browser.newPage();
		await phase('light.sign-in', () =>
			signInOrExplain(page, { dashboard, smtp, email: 'light@stack.test' })
		);
		await phase('light.restart', async () => {
			down(stack, false);
			check(/status=up-to-date/.test(up(stack)), 'light: db-migrate is idempotent on restart');
			await waitHealthy(stack, [
				['dashboard', 3000, '/sign-in'],
				['status-page', 3001, '/']
			]);
		});
		await page.goto(`${dashboard}/monitors`);
		check(
			new URL(page.url()).pathname === '/monitors',
			'light: the account and session survive the restart'
		);
		check((await fetch(`${statusSite}/no-such-page`)).status === 404, 'light: status site answers');
		await page.close();
	} catch (err) {
		dumpLogs(stack);
		throw err;
	} finally {
		down(stack, true);
	}
}

const smtp = await startSmtp('0.0.0.0');
let browser: Browser | undefined;
let failed = false;
try {
	await phase('build-images', buildImages);
	browser = await launchBrowser();
	await fullStack(browser, smtp);
	await lightStack(browser, smtp);
} catch (err) {
	failed = true;
	console.error(`[stack-test] FAILED ${(err as Error).stack ?? err}`);
} finally {
	await browser?.close();
	await smtp.close();
}
log(`total seconds=${((performance.now() - started) / 1000).toFixed(1)}`);
for (const [name, seconds] of timings) console.log(`  ${name.padEnd(20)} ${seconds.toFixed(1)} s`);
process.exit(failed ? 1 : 0);
