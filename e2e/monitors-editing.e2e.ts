import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchBrowser, startSmtp, startStack, type Stack, signIn } from './harness.ts';

// Creating and editing monitors in the dashboard: every spec field of every type can be set, and
// a failed save without JavaScript keeps what was typed and saves nothing.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({ otel: true, monitors: 20 })
	});
	browser = await launchBrowser();
	page = await browser.newPage();
	await signIn(page, { dashboard: stack.urls.dashboard, smtp, email: 'ada@example.test' });
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

function dumpOnFailure(p: () => Page) {
	onTestFailed(async () => {
		const text = await p()
			.locator('body')
			.innerText()
			.catch(() => '');
		console.log(`--- at ${p().url()} ---\n${text.slice(0, 3000)}`);
	});
}

async function create(type: string, name: string, fields: Record<string, string>) {
	await page.goto(`${stack.urls.dashboard}/monitors/new`, { waitUntil: 'networkidle' });
	await page.getByLabel('Type').selectOption(type);
	await page.getByLabel('Name').fill(name);
	for (const [label, value] of Object.entries(fields))
		await page.getByLabel(label, { exact: true }).fill(value);
	await page.getByRole('button', { name: 'Create monitor' }).click();
	await page.waitForURL(/\/monitors\/\d+$/);
	await page.reload({ waitUntil: 'networkidle' });
}

const value = (label: string, p: Page = page) => p.getByLabel(label, { exact: true }).inputValue();

describe('monitor form', () => {
	it('sets headers, assertions, regions, OpenTelemetry and the numbers of an HTTP monitor', async () => {
		dumpOnFailure(() => page);
		await create('http', 'Shop', {
			URL: 'https://shop.example.test/health',
			'Request headers': 'Authorization: Bearer abc\nX-Trace: 1',
			'Status code assertions': 'eq 200',
			'Body assertions': 'contains ok',
			'Response header assertions': 'content-type contains json',
			Regions: 'a-ams a-iad',
			'OpenTelemetry endpoint': 'https://otlp.example.test/v1/metrics',
			'OpenTelemetry headers': 'x-api: k1',
			'Timeout (ms)': '5000',
			'Degraded above (ms)': '800',
			Retries: '2'
		});
		await expect(value('Request headers')).resolves.toBe('Authorization: Bearer abc\nX-Trace: 1');
		await expect(value('Status code assertions')).resolves.toBe('eq 200');
		await expect(value('Body assertions')).resolves.toBe('contains ok');
		await expect(value('Response header assertions')).resolves.toBe('content-type contains json');
		await expect(value('Regions')).resolves.toBe('a-ams a-iad');
		await expect(value('OpenTelemetry endpoint')).resolves.toBe(
			'https://otlp.example.test/v1/metrics'
		);
		await expect(value('OpenTelemetry headers')).resolves.toBe('x-api: k1');
		await expect(value('Timeout (ms)')).resolves.toBe('5000');
		await expect(value('Degraded above (ms)')).resolves.toBe('800');
		await expect(value('Retries')).resolves.toBe('2');

		// Edit: clear an assertion and the export, change a header.
		await page.getByLabel('Status code assertions').fill('');
		await page.getByLabel('OpenTelemetry endpoint').fill('');
		await page.getByLabel('Request headers').fill('X-Trace: 2');
		await page.getByRole('button', { name: 'Save changes' }).click();
		await page.getByText('Saved.').waitFor();
		await page.reload({ waitUntil: 'networkidle' });
		await expect(value('Status code assertions')).resolves.toBe('');
		await expect(value('OpenTelemetry endpoint')).resolves.toBe('');
		await expect(value('Request headers')).resolves.toBe('X-Trace: 2');
		await expect(value('Body assertions')).resolves.toBe('contains ok');
	});

	it('sets DNS record assertions and gRPC metadata', async () => {
		dumpOnFailure(() => page);
		await create('dns', 'Zone', { Target: 'example.test', 'Record assertions': 'A eq 10.0.0.1' });
		await expect(value('Record assertions')).resolves.toBe('A eq 10.0.0.1');
		await create('grpc', 'Health', {
			Target: 'grpc.example.test:443',
			Service: 'shop.v1',
			Metadata: 'authorization: Bearer t'
		});
		await expect(value('Metadata')).resolves.toBe('authorization: Bearer t');
		await expect(value('Service')).resolves.toBe('shop.v1');
	});

	it('without JavaScript, a failed save keeps the typed values (unchecked boxes too) and saves nothing', async () => {
		await create('http', 'Blog', { URL: 'https://blog.example.test/' });
		const url = page.url();
		const noJs = await browser.newContext({ javaScriptEnabled: false });
		await noJs.addCookies(await page.context().cookies());
		const plain = await noJs.newPage();
		dumpOnFailure(() => plain);
		await plain.goto(url);
		await plain.getByLabel('Active (run checks)').uncheck();
		await plain.getByLabel('Name').fill('Blog renamed');
		await plain.getByLabel('Request headers').fill('Bad Header: x');
		await plain.getByRole('button', { name: 'Save changes' }).click();
		await plain
			.getByText(/must be a header name/)
			.first()
			.waitFor();
		await expect(plain.getByLabel('Active (run checks)').isChecked()).resolves.toBe(false);
		await expect(value('Name', plain)).resolves.toBe('Blog renamed');
		await expect(value('Request headers', plain)).resolves.toBe('Bad Header: x');

		await plain.goto(url);
		await expect(value('Name', plain)).resolves.toBe('Blog');
		await expect(plain.getByLabel('Active (run checks)').isChecked()).resolves.toBe(true);
		await noJs.close();
	});
});

describe('pause and resume', () => {
	it('a button on the monitor page pauses and resumes, also without JavaScript', async () => {
		dumpOnFailure(() => page);
		await create('tcp', 'Db', { Target: 'db.example.test:5432' });
		const url = page.url();
		await page.getByRole('button', { name: 'Pause' }).click();
		await page.getByRole('button', { name: 'Resume' }).waitFor();
		await page.reload({ waitUntil: 'networkidle' });
		await expect(page.getByLabel('Active (run checks)').isChecked()).resolves.toBe(false);

		const noJs = await browser.newContext({ javaScriptEnabled: false });
		await noJs.addCookies(await page.context().cookies());
		const plain = await noJs.newPage();
		await plain.goto(url);
		await plain.getByRole('button', { name: 'Resume' }).click();
		await plain.getByRole('button', { name: 'Pause' }).waitFor();
		await expect(plain.getByLabel('Active (run checks)').isChecked()).resolves.toBe(true);
		await noJs.close();
	});
});

describe('creating without JavaScript', () => {
	it('picks a non-HTTP type, keeps values after a refused create, and creates nothing half-way', async () => {
		const noJs = await browser.newContext({ javaScriptEnabled: false });
		await noJs.addCookies(await page.context().cookies());
		const plain = await noJs.newPage();
		dumpOnFailure(() => plain);
		await plain.goto(`${stack.urls.dashboard}/monitors/new`);
		await plain.getByRole('link', { name: 'TCP', exact: true }).click();
		await plain.getByLabel('Name').fill('Cache');
		await plain.getByLabel('Target').fill('cache.example.test');
		await plain.getByRole('button', { name: 'Create monitor' }).click();
		await plain
			.getByText(/must be host:port/)
			.first()
			.waitFor();
		await expect(value('Name', plain)).resolves.toBe('Cache');
		await expect(value('Target', plain)).resolves.toBe('cache.example.test');
		await plain.goto(`${stack.urls.dashboard}/monitors`);
		await expect(plain.getByRole('link', { name: 'Cache' }).count()).resolves.toBe(0);

		await plain.goto(`${stack.urls.dashboard}/monitors/new?type=tcp`);
		await plain.getByLabel('Name').fill('Cache');
		await plain.getByLabel('Target').fill('cache.example.test:6379');
		await plain.getByRole('button', { name: 'Create monitor' }).click();
		await plain.waitForURL(/\/monitors\/\d+$/);
		await expect(plain.getByText(/TCP · cache\.example\.test:6379/).isVisible()).resolves.toBe(
			true
		);
		await noJs.close();
	});
});
