import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	chromium,
	type Browser,
	type BrowserContext,
	type ConsoleMessage,
	type Page,
	type Request,
	type Response,
	type WebError
} from 'playwright-core';
import { freePort, waitForMail, type Mail } from '../server/test/servers.ts';

// Real servers shared with the server's unit tests live in server/test/servers.ts.
export { freePort, startSmtp, waitForMail, type Mail } from '../server/test/servers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The stack's AUTH_SECRET, for tests that seal secrets the way the running process opens them.
export const AUTH_SECRET = 'e2e-secret-e2e-secret-e2e-secret-e2e';

export type Stack = {
	urls: { dashboard: string; status: string; api: string };
	pid: number;
	logs: string[];
	stop: () => Promise<void>;
};

// The all-in-one process exactly as `npm run serve` starts it, on free ports and a fresh data dir.
export async function startStack(env: Record<string, string>): Promise<Stack> {
	const [workflows, api, dashboard, status, ingest] = [
		await freePort(),
		await freePort(),
		await freePort(),
		await freePort(),
		await freePort()
	];
	const urls = {
		dashboard: `http://127.0.0.1:${dashboard}`,
		status: `http://127.0.0.1:${status}`,
		api: `http://127.0.0.1:${api}`
	};
	const child: ChildProcess = spawn(process.execPath, ['server/src/main.ts'], {
		cwd: root,
		env: {
			...process.env,
			NODE_ENV: 'production',
			AUTH_SECRET,
			CRON_SECRET: 'e2e-cron-secret',
			DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-')),
			DATABASE_URL: '',
			WORKFLOWS_PORT: String(workflows),
			API_PORT: String(api),
			DASHBOARD_PORT: String(dashboard),
			STATUS_PAGE_PORT: String(status),
			INGEST_PORT: String(ingest),
			NEXT_PUBLIC_URL: urls.dashboard,
			DASHBOARD_URL: urls.dashboard,
			STATUS_PAGE_URL: urls.status,
			OAUTH_ISSUER: urls.api,
			// Production checks these at start (server/src/config.ts): the SaaS free plan unless a
			// test opts in, and a mail setting (tests that read mail pass their own SMTP server).
			SELF_HOST: 'false',
			SMTP_URL: 'smtp://127.0.0.1:1',
			...env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	const logs: string[] = [];
	const ready = new Promise<void>((resolve, reject) => {
		const onData = (chunk: Buffer) => {
			const text = chunk.toString();
			logs.push(text);
			if (text.includes('[main] ready')) resolve();
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.once('exit', (code) => reject(new Error(`stack exited with ${code}:\n${logs.join('')}`)));
	});
	await ready;
	return {
		urls,
		pid: child.pid ?? 0,
		logs,
		stop: () =>
			new Promise((resolve) => {
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			})
	};
}

// What goes wrong in a browser context, one line per event as it happens: requests that got no
// answer (left out: navigations aborting their own requests, and scripts a context without
// JavaScript blocks), answers >= 500, console errors (not Chromium's line for each 4xx) and
// uncaught exceptions. Returns a function
// that stops watching.
export function watchContext(
	context: BrowserContext,
	opts: { report?: (line: string) => void; javaScript?: boolean } = {}
): () => void {
	const report = opts.report ?? ((line: string) => console.log(`[browser] ${line}`));
	const failed = (r: Request) => {
		const reason = r.failure()?.errorText ?? '?';
		if (reason === 'net::ERR_ABORTED' || (opts.javaScript === false && reason === 'csp')) return;
		report(`request failed: ${r.method()} ${r.url()} (${reason})`);
	};
	const answered = (r: Response) => {
		if (r.status() >= 500) report(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
	};
	// Chromium logs every 4xx as a console error; a refused form post is often the test's point.
	const consoled = (m: ConsoleMessage) => {
		if (m.type() !== 'error' || /status of 4\d\d /.test(m.text())) return;
		report(`console error at ${m.page()?.url() ?? '?'}: ${m.text()}`);
	};
	const thrown = (e: WebError) =>
		report(`uncaught at ${e.page()?.url() ?? '?'}: ${e.error().message}`);
	context.on('requestfailed', failed);
	context.on('response', answered);
	context.on('console', consoled);
	context.on('weberror', thrown);
	return () => {
		context.off('requestfailed', failed);
		context.off('response', answered);
		context.off('console', consoled);
		context.off('weberror', thrown);
	};
}

// Chromium for the journeys; every context it opens reports its trouble (watchContext) on the
// test's output, so a journey that times out shows what the browser saw.
export async function launchBrowser(): Promise<Browser> {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync'
		]
	});
	const newContext = browser.newContext.bind(browser);
	browser.newContext = async (options) => {
		const context = await newContext(options);
		watchContext(context, { javaScript: options?.javaScriptEnabled });
		return context;
	};
	return browser;
}

// Signs in on the dashboard by magic link, as a person does: the form, the mail, the link.
export async function signIn(
	page: Page,
	args: { dashboard: string; smtp: { mails: Mail[] }; email: string }
): Promise<void> {
	await page.goto(`${args.dashboard}/sign-in`, { waitUntil: 'networkidle' });
	await page.getByLabel('E-mail').fill(args.email);
	await page.getByRole('button', { name: 'Send sign-in link' }).click();
	await page.getByText('Check your e-mail').waitFor();
	const mail = await waitForMail(args.smtp, args.email);
	const link = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(mail.text)?.[0];
	if (!link) throw new Error(`no sign-in link in the mail to ${args.email}`);
	await openMagicLink(page, link);
}

// Opening a mailed sign-in link shows a confirm button (mail scanners open links): press it.
export async function openMagicLink(page: Page, link: string): Promise<void> {
	await page.goto(link);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await page.waitForURL(/\/monitors/);
}

/**
 * A signed-in dashboard tab with JavaScript off (dashboard forms must work as plain posts), on a
 * status page it just created; `js` is the signed-in tab with JavaScript, `base` the page's URL.
 */
export async function newStatusPageWithoutJs(args: {
	browser: Browser;
	stack: Stack;
	smtp: { mails: Mail[] };
	email: string;
	title: string;
	slug: string;
}): Promise<{ js: Page; noJs: BrowserContext; page: Page; base: string }> {
	const js = await args.browser.newPage();
	await signIn(js, { dashboard: args.stack.urls.dashboard, smtp: args.smtp, email: args.email });
	const noJs = await args.browser.newContext({ javaScriptEnabled: false });
	await noJs.addCookies(await js.context().cookies());
	const page = await noJs.newPage();
	await page.goto(`${args.stack.urls.dashboard}/status-pages`);
	await page.getByLabel('Title').fill(args.title);
	await page.getByLabel('Slug').fill(args.slug);
	await page.getByRole('button', { name: 'Create status page' }).click();
	await page.waitForURL(/\/status-pages\/\d+$/);
	return { js, noJs, page, base: page.url() };
}

// Polls until `fn` holds (every 50 ms), failing after `ms`: for effects that land asynchronously.
export async function until(fn: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await fn())) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, 50));
	}
}
