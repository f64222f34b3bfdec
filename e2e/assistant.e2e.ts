import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { fakeOpenAi, say, stream, toolCall } from '../server/test/fake-openai.ts';
import { axe } from './axe.ts';
import {
	launchBrowser,
	newStatusPageWithoutJs,
	signIn,
	startSmtp,
	startStack,
	type Stack
} from './harness.ts';

// The Assistant page: without a provider it says how to configure one (and the endpoint answers
// 503); with one (a fake OpenAI-compatible server) a message sent as a plain form post runs a
// tool call that opens a status report, not notified, and the page shows the answer.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let browser: Browser;

beforeAll(async () => {
	smtp = await startSmtp();
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
	await smtp?.close();
});

describe('the Assistant page without a model provider (e2e)', () => {
	let stack: Stack;
	beforeAll(async () => {
		stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	});
	afterAll(() => stack?.stop());

	it('explains which variables to set, and the chat endpoint answers 503', async () => {
		const page = await browser.newPage();
		await signIn(page, {
			dashboard: stack.urls.dashboard,
			smtp,
			email: 'ada@example.test'
		});
		await page
			.getByRole('navigation', { name: 'Main' })
			.getByRole('link', { name: 'Assistant' })
			.click();
		await page.getByText('Chat is not configured on this install.').waitFor();
		const help = await page.locator('main').innerText();
		for (const name of ['AI_BASE_URL', 'AI_MODEL', 'AI_API_KEY', 'AI_GATEWAY_API_KEY'])
			expect(help).toContain(name);
		expect(await axe(page, ['serious', 'critical'])).toEqual([]);
		const res = await page.request.post(`${stack.urls.dashboard}/assistant/chat`, {
			data: { messages: [{ role: 'user', content: 'hello' }] }
		});
		expect(res.status()).toBe(503);
		expect(await res.text()).toBe('Chat is not configured');
	});
});

describe('the Assistant page with a model provider (e2e)', () => {
	let stack: Stack;
	let provider: Awaited<ReturnType<typeof fakeOpenAi>>;
	let js: Page;
	let page: Page;
	let base: string;
	beforeAll(async () => {
		provider = await fakeOpenAi();
		stack = await startStack({
			SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
			AI_BASE_URL: provider.url,
			AI_MODEL: 'e2e-model',
			// The tests below send exactly this many messages; the last test is one too many.
			AI_CHAT_BUDGET_REQUESTS: '4'
		});
		({ js, page, base } = await newStatusPageWithoutJs({
			browser,
			stack,
			smtp,
			email: 'lin@example.test',
			title: 'Acme status',
			slug: 'acme'
		}));
	});
	afterAll(async () => {
		await stack?.stop();
		await provider?.close();
	});

	it('opens a status report from a message sent without JavaScript, not notified', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		const pageId = Number(/\/status-pages\/(\d+)$/.exec(base)?.[1]);
		provider.script.push(
			toolCall('create_status_report', {
				pageId,
				title: 'Chat report',
				status: 'investigating',
				message: 'Opened from the assistant'
			}),
			say('I opened "Chat report".')
		);
		await page.goto(`${stack.urls.dashboard}/assistant`);
		expect(await page.getByLabel('Notify subscribers').isChecked()).toBe(false);
		await page.getByLabel('Message').fill('Open a report called Chat report');
		await page.getByRole('button', { name: 'Send' }).click();
		await page.getByText('I opened "Chat report".').waitFor();
		expect(await page.getByText('Tools used: create_status_report').isVisible()).toBe(true);
		expect(provider.requests.map((r) => r.body.model)).toEqual(['e2e-model', 'e2e-model']);
		const created = JSON.parse(provider.requests[1].body.messages.at(-1)?.content ?? '{}');
		expect(created.updates[0]).toMatchObject({ notify: false, notified: false });
		await page.goto(`${base}/reports`);
		await page.getByText('Chat report').first().waitFor();
	});

	it('keeps the conversation with JavaScript on', async () => {
		provider.requests.length = 0;
		provider.script.push(say('First answer.'), say('Second answer.'));
		await js.goto(`${stack.urls.dashboard}/assistant`, { waitUntil: 'networkidle' });
		await js.getByLabel('Message').fill('One');
		await js.getByRole('button', { name: 'Send' }).click();
		await js.getByText('First answer.').waitFor();
		await js.getByLabel('Message').fill('Two');
		await js.getByRole('button', { name: 'Send' }).click();
		await js.getByText('Second answer.').waitFor();
		expect(await axe(js, ['serious', 'critical'])).toEqual([]);
		expect(provider.requests[1].body.messages.map((m) => [m.role, m.content])).toEqual([
			['system', expect.any(String)],
			['user', 'One'],
			['assistant', 'First answer.'],
			['user', 'Two']
		]);
	});

	it('streams the answer into the page as the model writes it (JavaScript on)', async () => {
		provider.requests.length = 0;
		let release = () => {};
		const hold = new Promise<void>((r) => (release = r));
		provider.script.push(toolCall('list_status_pages', {}), {
			...stream('Checking your ', 'pages: Acme status.'),
			hold
		});
		try {
			await js.goto(`${stack.urls.dashboard}/assistant`, { waitUntil: 'networkidle' });
			const response = js.waitForResponse((r) => r.url().endsWith('/assistant/chat'));
			await js.getByLabel('Message').fill('Which pages do I have?');
			await js.getByRole('button', { name: 'Send' }).click();
			expect((await response).headers()['content-type']).toBe('text/event-stream; charset=utf-8');
			// The model holds the rest back: the tool line and the first words are already shown.
			await js.getByText('Checking your').waitFor();
			expect(await js.getByText('Tools used: list_status_pages').isVisible()).toBe(true);
			expect(await js.getByText('pages: Acme status.').count()).toBe(0);
			expect(await js.getByRole('button', { name: 'Sending…' }).isDisabled()).toBe(true);
			expect(await axe(js, ['serious', 'critical'])).toEqual([]);
		} finally {
			release();
		}
		await js.getByText('Checking your pages: Acme status.').waitFor();
		await js.getByRole('button', { name: 'Send' }).waitFor();
		expect(await js.getByLabel('Message').inputValue()).toBe('');
		expect(provider.requests.map((r) => r.body.stream)).toEqual([true, true]);
		expect(await axe(js, ['serious', 'critical'])).toEqual([]);
	});

	it('says when to try again once the workspace has used its budget, with and without JavaScript', async () => {
		provider.requests.length = 0;
		const budget =
			/^This workspace has used its 4 assistant messages per 10 minutes: try again in \d+ minutes?\.$/;
		await page.goto(`${stack.urls.dashboard}/assistant`);
		await page.getByLabel('Message').fill('One more');
		await page.getByRole('button', { name: 'Send' }).click();
		await page.getByRole('alert').waitFor();
		expect(await page.getByRole('alert').innerText()).toMatch(budget);
		expect(await page.getByLabel('Message').inputValue()).toBe('One more');

		await js.goto(`${stack.urls.dashboard}/assistant`, { waitUntil: 'networkidle' });
		await js.getByLabel('Message').fill('And another');
		await js.getByRole('button', { name: 'Send' }).click();
		await js.getByRole('alert').waitFor();
		expect(await js.getByRole('alert').innerText()).toMatch(budget);
		expect(await js.getByLabel('Message').inputValue()).toBe('And another');
		expect(await axe(js, ['serious', 'critical'])).toEqual([]);
		expect(provider.requests).toHaveLength(0);
	});
});
