import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
	launchBrowser,
	newStatusPageWithoutJs,
	startSmtp,
	startStack,
	type Stack
} from './harness.ts';

// Status reports, maintenance and the full page settings form, driven with JavaScript off:
// every dashboard form here must work as a plain form post (STYLE 31). One maintenance test
// turns JavaScript on, for what only a browser knows: its time zone.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let noJs: BrowserContext;
let page: Page;
let base: string;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	browser = await launchBrowser();
	({ noJs, page, base } = await newStatusPageWithoutJs({
		browser,
		stack,
		smtp,
		email: 'grace@example.test',
		title: 'Acme status',
		slug: 'acme'
	}));
	await page.getByLabel('Component name').fill('API');
	await page.getByRole('button', { name: 'Add component' }).click();
	await page.getByRole('cell', { name: 'API', exact: true }).waitFor();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

const visible = (text: string | RegExp) => page.getByText(text).first().isVisible();

describe('status reports and maintenance in the dashboard, without JavaScript', () => {
	it('creates, updates, edits and resolves a report', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/reports`);
		await page.getByLabel('Title').fill('API errors');
		await page.getByLabel('Message (public)').fill('Looking into it');
		await page.locator('input[name=pageComponentIds]').first().check();
		await page.locator('select[name^=impact_]').first().selectOption('major_outage');
		// Notify defaults to off (spec 4.1 rule 7).
		expect(await page.getByLabel('Notify subscribers').isChecked()).toBe(false);
		await page.getByRole('button', { name: 'Publish report' }).click();
		await page.waitForURL(/\/reports\/\d+$/);
		expect(await visible('Looking into it')).toBe(true);
		expect(await visible('API: Major outage')).toBe(true);
		expect(await visible(/not notified/)).toBe(true);

		// A blank message is refused with the error under the field.
		await page.getByLabel('Message (public)', { exact: true }).fill('   ');
		await page.getByRole('button', { name: 'Post update' }).click();
		expect(await visible('Message (public): enter a value.')).toBe(true);

		await page.getByLabel('New status').selectOption('identified');
		await page.getByLabel('Message (public)', { exact: true }).fill('Bad deploy');
		await page.locator('#update-notify').check();
		await page.getByRole('button', { name: 'Post update' }).click();
		await page.getByText('Bad deploy').waitFor();
		expect(await visible(/subscribers notified/)).toBe(true);

		await page.getByLabel('Title').fill('API 5xx');
		await page.getByRole('button', { name: 'Save details' }).click();
		await page.getByRole('heading', { name: 'API 5xx' }).waitFor();

		await page.getByLabel('Final message (public)').fill('Rolled back');
		await page.getByRole('button', { name: 'Resolve report' }).click();
		await page.getByText('Rolled back').waitFor();
		expect(await visible(/Resolved · opened/)).toBe(true);

		await page.goto(`${base}/reports`);
		expect(await page.getByRole('link', { name: 'API 5xx' }).isVisible()).toBe(true);
	});

	it('schedules, edits and deletes maintenance, with the date error on the end field', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/maintenance`);
		await page.locator('#new-title').fill('DB upgrade');
		await page.locator('#new-from').fill('2026-12-01T02:00');
		await page.locator('#new-to').fill('2026-12-01T01:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		expect(await visible('End date must be after start date.')).toBe(true);
		await page.locator('#new-to').fill('2026-12-01T04:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		// Without JavaScript and with no remembered zone, times are entered and shown in UTC.
		await page.getByText('1 Dec 2026, 02:00 UTC → 1 Dec 2026, 04:00 UTC').waitFor();

		await page.getByText('DB upgrade').first().click(); // opens the <details>
		await page.locator('input[id$="-title"]:not(#new-title)').fill('Database upgrade');
		await page.getByRole('button', { name: 'Save window' }).click();
		await page
			.getByRole('status')
			.filter({ hasText: 'Saved changes to “Database upgrade”.' })
			.waitFor();
		await page.locator('summary', { hasText: 'Database upgrade' }).click();
		// Deleting asks first: the section says what goes, then its button deletes.
		await page.getByText('Delete window…').click();
		await page.getByText('“Database upgrade” disappears from the status page').waitFor();
		await page.getByRole('button', { name: 'Delete window' }).click();
		await page.getByText('No maintenance scheduled.').waitFor();
	});

	it('schedules in a chosen time zone without JavaScript, and remembers the zone', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/maintenance`);
		expect(await page.locator('#new-time-zone').inputValue()).toBe('UTC');
		await page.locator('#new-title').fill('Spring forward');
		await page.locator('#new-time-zone').fill('America/New_York');
		// 02:30 on 8 Mar 2026 does not exist in New York: refused on the field, nothing written.
		await page.locator('#new-from').fill('2026-03-08T02:30');
		await page.locator('#new-to').fill('2026-03-08T04:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		expect(await visible(/2026-03-08 02:30 does not exist in America\/New_York/)).toBe(true);
		expect(await page.locator('summary', { hasText: 'Spring forward' }).count()).toBe(0);
		// The echoed form keeps the zone the times were typed in.
		expect(await page.locator('#new-time-zone').inputValue()).toBe('America/New_York');

		await page.locator('#new-title').fill('NY window');
		await page.locator('#new-from').fill('2026-12-01T21:00');
		await page.locator('#new-to').fill('2026-12-01T23:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		await page.getByText('1 Dec 2026, 21:00 GMT-5 → 1 Dec 2026, 23:00 GMT-5').waitFor();
		expect(await visible('2 Dec 2026, 02:00 UTC → 2 Dec 2026, 04:00 UTC')).toBe(true);

		// The zone is remembered: a fresh load shows and edits in New York time.
		await page.goto(`${base}/maintenance`);
		expect(await page.locator('#new-time-zone').inputValue()).toBe('America/New_York');
		const edit = page.locator('form[aria-label="Edit NY window"]'); // inside a closed <details>
		expect(await edit.locator('input[name=timeZone]').inputValue()).toBe('America/New_York');
		expect(await edit.locator('input[name=from]').inputValue()).toBe('2026-12-01T21:00');

		// The public page serves the UTC instants.
		const res = await fetch(`${stack.urls.status}/acme/api/v2/scheduled-maintenances.json`);
		const body = (await res.json()) as {
			scheduled_maintenances: Array<{
				name: string;
				scheduled_for: string;
				scheduled_until: string;
			}>;
		};
		const ny = body.scheduled_maintenances.find((m) => m.name === 'NY window');
		expect(new Date(ny?.scheduled_for ?? 0).toISOString()).toBe('2026-12-02T02:00:00.000Z');
		expect(new Date(ny?.scheduled_until ?? 0).toISOString()).toBe('2026-12-02T04:00:00.000Z');

		// An unknown zone (only possible by hand-crafting the post) is a field error; nothing written.
		const failed = await page.request.post(`${base}/maintenance?/create`, {
			headers: { origin: stack.urls.dashboard, 'x-sveltekit-action': 'true' },
			form: {
				title: 'Mars',
				from: '2026-12-01T21:00',
				to: '2026-12-01T23:00',
				timeZone: 'Mars/Base'
			}
		});
		expect(await failed.json()).toMatchObject({ type: 'failure', status: 400 });
		const failure = JSON.stringify(await failed.json());
		expect(failure).toContain('unknown time zone');
		expect(failure).toContain('Mars/Base');
		await page.reload();
		expect(await page.locator('summary', { hasText: 'Mars' }).count()).toBe(0);
	});

	it('presets the browser zone with JavaScript and takes the earlier of a repeated hour', async () => {
		await page.goto(`${base}/maintenance`);
		await page.locator('#new-title').fill('Later fall back');
		await page.locator('#new-time-zone').fill('UTC');
		await page.locator('#new-from').fill('2026-11-01T06:30');
		await page.locator('#new-to').fill('2026-11-01T09:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		await page.getByText('1 Nov 2026, 06:30 UTC').waitFor();

		const js = await browser.newContext({ timezoneId: 'America/New_York' });
		const cookies = await noJs.cookies();
		await js.addCookies(cookies.filter((c) => c.name !== 'upstate-time-zone'));
		const p = await js.newPage();
		onTestFailed(async () => console.log(p.url(), await p.locator('body').innerText()));
		await p.goto(`${base}/maintenance`, { waitUntil: 'networkidle' });
		await expect.poll(() => p.locator('#new-time-zone').inputValue()).toBe('America/New_York');
		// Listed windows are shown in the browser's zone too.
		await p.getByText('1 Dec 2026, 21:00 GMT-5 → 1 Dec 2026, 23:00 GMT-5').waitFor();

		await p.locator('#new-title').fill('Fall back');
		// 01:30 on 1 Nov 2026 happens twice in New York (EDT, then EST): the earlier one is taken.
		await p.locator('#new-from').fill('2026-11-01T01:30');
		await p.locator('#new-to').fill('2026-11-01T03:00');
		const create = p.locator('form[action="?/create"]');
		expect(await create.getByText('= 1 Nov 2026, 05:30 UTC').isVisible()).toBe(true);
		await p.getByRole('button', { name: 'Schedule', exact: true }).click();
		await p.getByText('1 Nov 2026, 05:30 UTC → 1 Nov 2026, 08:00 UTC').waitFor();

		// The later 01:30 (06:30 UTC) also shows as 01:30; saving the untouched field keeps it.
		await p.locator('summary', { hasText: 'Later fall back' }).click();
		const edit = p.locator('form[aria-label="Edit Later fall back"]');
		expect(await edit.locator('input[name=from]').inputValue()).toBe('2026-11-01T01:30');
		expect(await edit.getByText('= 1 Nov 2026, 06:30 UTC').isVisible()).toBe(true);
		await edit.locator('input[name=title]').fill('Later fall back, renamed');
		await edit.getByRole('button', { name: 'Save window' }).click();
		await p
			.locator('summary', { hasText: 'Later fall back, renamed' })
			.filter({ hasText: '1 Nov 2026, 06:30 UTC → 1 Nov 2026, 09:00 UTC' })
			.waitFor();
		await js.close();
	});

	it('edits every page setting with errors on their fields, and orders components', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(base);
		await page.getByLabel('Custom theme, light (JSON)').fill('{not json');
		await page.getByRole('button', { name: 'Save page' }).click();
		expect(await visible(/must be a JSON object/)).toBe(true);

		await page.getByLabel('Custom theme, light (JSON)').fill('');
		await page.getByLabel('Who can see the page').selectOption('password');
		await page.getByRole('button', { name: 'Save page' }).click();
		expect(await visible("required when access_type is 'password'")).toBe(true);

		await page.getByLabel('Who can see the page').selectOption('public');
		await page.getByLabel('Description', { exact: true }).fill('All our services');
		// Only the status site's languages and themes are offered.
		const offered = (select: string) =>
			page
				.locator(`select[name=${select}] option`)
				.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
		expect(await offered('default_locale')).toEqual(['en', 'de', 'fr', 'es', 'ja']);
		expect(await offered('theme')).toEqual(['default', 'ocean', 'mono']);
		// The self-hosted sign-up plan has no i18n: a German page is a translation (spec 2.3).
		await page.getByLabel('Default locale').selectOption('de');
		await page.getByLabel('Deutsch (de)').check();
		await page.getByLabel('Theme', { exact: true }).selectOption('ocean');
		await page.getByLabel('Allow search engines to index').check();
		await page.getByRole('button', { name: 'Save page' }).click();
		expect(await visible("your plan does not include 'i18n'")).toBe(true);
		// The failed save shows what was sent, not the saved page.
		expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(
			'All our services'
		);
		expect(await page.getByLabel('Default locale').inputValue()).toBe('de');
		expect(await page.getByLabel('Deutsch (de)').isChecked()).toBe(true);
		expect(await page.getByLabel('Theme', { exact: true }).inputValue()).toBe('ocean');
		expect(await page.getByLabel('Allow search engines to index').isChecked()).toBe(true);

		await page.getByLabel('Default locale').selectOption('en');
		await page.getByLabel('Deutsch (de)').uncheck();
		await page.getByLabel('Homepage URL').fill('javascript:alert(1)');
		await page.getByLabel('Allowed e-mail domains').fill('acme.test, not a domain!!');
		await page.getByRole('button', { name: 'Save page' }).click();
		expect(await visible('must be an http or https URL')).toBe(true);
		expect(await visible('"not a domain!!" is not a domain such as example.com')).toBe(true);
		expect(await page.getByLabel('Homepage URL').inputValue()).toBe('javascript:alert(1)');
		expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(
			'All our services'
		);

		await page.getByLabel('Homepage URL').fill('https://acme.test/');
		await page.getByLabel('Allowed e-mail domains').fill('acme.test');
		await page.getByRole('button', { name: 'Save page' }).click();
		await page.getByText('Saved.').waitFor();
		await page.reload();
		expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(
			'All our services'
		);
		expect(await page.getByLabel('Default locale').inputValue()).toBe('en');
		expect(await page.getByLabel('Theme', { exact: true }).inputValue()).toBe('ocean');
		expect(await page.getByLabel('Who can see the page').inputValue()).toBe('public');

		await page.getByLabel('Order of API', { exact: true }).fill('4');
		await page.getByRole('button', { name: 'Save API' }).click();
		await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
		expect(await page.getByLabel('Order of API', { exact: true }).inputValue()).toBe('4');
	});
});
