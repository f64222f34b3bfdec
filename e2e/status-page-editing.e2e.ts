import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { axe } from './axe.ts';
import {
	launchBrowser,
	newStatusPageWithoutJs,
	startSmtp,
	startStack,
	type Stack
} from './harness.ts';

// Editing a status page's components, groups, reports and maintenance windows: mostly with
// JavaScript off (every form must work as a plain post), with it on where a confirm dialog opens.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let js: Page;
let page: Page;
let base: string;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	browser = await launchBrowser();
	({ js, page, base } = await newStatusPageWithoutJs({
		browser,
		stack,
		smtp,
		email: 'ada@example.test',
		title: 'Ops status',
		slug: 'ops'
	}));
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

const alert = (p: Page, text: string | RegExp) => p.getByRole('alert').filter({ hasText: text });
const groupId = (p: Page, name: string) =>
	p
		.getByLabel(`Name of group ${name}`)
		.locator('xpath=..')
		.locator('input[name=groupId]')
		.inputValue();

describe('status page components and groups', () => {
	it('adds and edits a component with a description, renames groups, refuses a duplicate name', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(base);
		await page.getByLabel('Group name').fill('Core');
		await page.getByRole('button', { name: 'Add group' }).click();
		await page.getByLabel('Name of group Core').waitFor();
		await page.getByLabel('Group name').fill(' core ');
		await page.getByRole('button', { name: 'Add group' }).click();
		await alert(page, "a group named 'core' already exists on this page").waitFor();
		expect(await page.getByLabel('Group name').inputValue()).toBe(' core ');

		await page.getByLabel('Component name').fill('API');
		await page.getByLabel('Component description').fill('Public REST API');
		await page.getByLabel('Group', { exact: true }).selectOption({ label: 'Core' });
		await page.getByRole('button', { name: 'Add component' }).click();
		await page.getByRole('cell', { name: 'API Public REST API', exact: true }).waitFor();

		await page.getByLabel('Name of API').fill('Public API');
		await page.getByLabel('Description of API').fill('REST and webhooks');
		await page.getByRole('button', { name: 'Save API' }).click();
		await page.getByRole('cell', { name: 'Public API REST and webhooks', exact: true }).waitFor();
		expect(await page.getByLabel('Description of Public API').inputValue()).toBe(
			'REST and webhooks'
		);

		await page.getByLabel('Name of group Core').fill('Platform');
		await page.getByRole('button', { name: 'Rename group Core' }).click();
		await page.getByLabel('Name of group Platform').waitFor();
		expect(
			await page
				.getByLabel('Group of Public API', { exact: true })
				.locator('option:checked')
				.innerText()
		).toBe('Platform');

		await page.getByLabel('Group name').fill('Edge');
		await page.getByRole('button', { name: 'Add group' }).click();
		await page.getByLabel('Name of group Edge').fill('PLATFORM');
		await page.getByRole('button', { name: 'Rename group Edge' }).click();
		await alert(page, "a group named 'PLATFORM' already exists on this page").waitFor();
		expect(await page.getByLabel('Name of group Edge').inputValue()).toBe('PLATFORM');
	});

	it('asks before deleting a group without JavaScript and says the components stay', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(base);
		const ask = page.getByText('Delete group Platform…');
		const consequence = page.getByText(
			'Group “Platform” goes. Its component stays on the page, ungrouped.'
		);
		const remove = page.getByRole('button', { name: 'Delete group', exact: true });
		expect(await remove.isVisible()).toBe(false);
		await ask.click();
		await consequence.waitFor();
		// Opening the step deleted nothing; closing it again hides the question.
		expect(await page.getByLabel('Name of group Platform').isVisible()).toBe(true);
		await ask.click();
		await consequence.waitFor({ state: 'hidden' });
		expect(await remove.isVisible()).toBe(false);

		await ask.click();
		await remove.click();
		await page
			.getByRole('status')
			.filter({ hasText: 'Deleted group “Platform”. Its components stay on the page, ungrouped.' })
			.waitFor();
		expect(await page.getByLabel('Name of group Platform').count()).toBe(0);
		expect(await page.getByLabel('Group of Public API', { exact: true }).inputValue()).toBe('');
	});

	it('asks in a dialog when JavaScript is on; Cancel and Escape keep the group', async () => {
		onTestFailed(async () => console.log(js.url(), await js.locator('body').innerText()));
		await js.goto(base, { waitUntil: 'networkidle' });
		await js.getByLabel('Group of Public API', { exact: true }).selectOption({ label: 'Edge' });
		await js.getByRole('button', { name: 'Save Public API' }).click();
		await js.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

		const dialog = js.getByRole('dialog', { name: 'Delete group Edge?' });
		const ask = js.getByRole('button', { name: 'Delete group Edge…' });
		expect(await dialog.isVisible()).toBe(false);
		await ask.click();
		await dialog.waitFor();
		expect(await dialog.innerText()).toContain(
			'Group “Edge” goes. Its component stays on the page, ungrouped.'
		);
		expect(await axe(js, ['serious', 'critical'])).toEqual([]);
		await dialog.getByRole('button', { name: 'Cancel' }).click();
		await dialog.waitFor({ state: 'hidden' });
		await ask.click();
		await dialog.waitFor();
		await js.keyboard.press('Escape');
		await dialog.waitFor({ state: 'hidden' });
		expect(await js.getByLabel('Name of group Edge').isVisible()).toBe(true);

		await ask.click();
		await dialog.getByRole('button', { name: 'Delete group', exact: true }).click();
		await js.getByRole('status').filter({ hasText: 'Deleted group “Edge”.' }).waitFor();
		expect(await dialog.count()).toBe(0);
		expect(await js.getByLabel('Name of group Edge').count()).toBe(0);
		expect(await js.getByLabel('Group of Public API', { exact: true }).inputValue()).toBe('');
	});

	it('asks again, deleting nothing, when a delete arrives without its confirmation', async () => {
		onTestFailed(async () => console.log(js.url(), await js.locator('body').innerText()));
		await js.goto(base, { waitUntil: 'networkidle' });
		await js.getByLabel('Group name').fill('Stale');
		await js.getByRole('button', { name: 'Add group' }).click();
		await js.getByLabel('Name of group Stale').waitFor();
		const id = await groupId(js, 'Stale');
		// A plain post with no `confirmed`, as a page from before the dialog would send.
		await js.evaluate((value) => {
			const f = Object.assign(document.createElement('form'), {
				method: 'POST',
				action: '?/removeGroup'
			});
			f.append(Object.assign(document.createElement('input'), { name: 'groupId', value }));
			document.body.append(f);
			f.submit();
		}, id);
		const dialog = js.getByRole('dialog', { name: 'Delete group Stale?' });
		await dialog.waitFor();
		expect(await dialog.innerText()).toContain('Group “Stale” goes. It has no components.');
		await dialog.getByRole('button', { name: 'Cancel' }).click();
		await js.goto(base, { waitUntil: 'networkidle' });
		expect(await js.getByLabel('Name of group Stale').isVisible()).toBe(true);
	});

	it('shows a group deleted meanwhile as a message on the form, not a 404 page', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(base);
		await page.getByLabel('Group name').fill('Temp');
		await page.getByRole('button', { name: 'Add group' }).click();
		const id = await groupId(page, 'Temp');
		await page.getByLabel('Component name').fill('Queue');
		await page.getByLabel('Group', { exact: true }).selectOption({ label: 'Temp' });
		// Someone else deletes the group before this form is sent.
		const removed = await page.request.post(`${base}?/removeGroup`, {
			headers: { origin: stack.urls.dashboard },
			form: { groupId: id, confirmed: 'yes' }
		});
		expect(removed.status()).toBe(200);
		await page.getByRole('button', { name: 'Add component' }).click();
		await alert(page, `component group ${id} not found`).waitFor();
		expect(await page.getByRole('heading', { name: 'Components' }).isVisible()).toBe(true);
		expect(await page.getByLabel('Component name').inputValue()).toBe('Queue');
		expect(await page.getByRole('cell', { name: 'Queue', exact: true }).count()).toBe(0);

		// Deleting a group someone has just deleted says so.
		await page.getByLabel('Group name').fill('Gone');
		await page.getByRole('button', { name: 'Add group' }).click();
		const gone = await groupId(page, 'Gone');
		await page.request.post(`${base}?/removeGroup`, {
			headers: { origin: stack.urls.dashboard },
			form: { groupId: gone, confirmed: 'yes' }
		});
		await page.getByText('Delete group Gone…').click();
		await page.getByRole('button', { name: 'Delete group', exact: true }).click();
		await alert(page, `component group ${gone} not found`).waitFor();
	});
});

describe('status reports and maintenance', () => {
	it('says that an update reopens a resolved report, before and after posting', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/reports`);
		await page.getByLabel('Title').fill('Slow API');
		await page.getByLabel('Message (public)').fill('Looking into it');
		await page.getByRole('button', { name: 'Publish report' }).click();
		await page.waitForURL(/\/reports\/\d+$/);
		const note = 'This report is resolved. Posting an update reopens it';
		expect(await page.getByText(note).count()).toBe(0);
		await page.getByLabel('Final message (public)').fill('Fixed');
		await page.getByRole('button', { name: 'Resolve report' }).click();
		await page.getByText(/Resolved · opened/).waitFor();

		expect(await page.getByText(note).isVisible()).toBe(true);
		await page.getByLabel('New status').selectOption('monitoring');
		await page.getByLabel('Message (public)', { exact: true }).fill('It is back');
		await page.getByRole('button', { name: 'Post update and reopen' }).click();
		await page.getByRole('status').filter({ hasText: 'Report reopened' }).waitFor();
		expect(await page.getByText(/Monitoring · opened/).isVisible()).toBe(true);
		expect(await page.getByText('Saved.').count()).toBe(0);
	});

	it('lists windows in progress and upcoming by start, then past ones, each labelled', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/maintenance`);
		const schedule = async (title: string, from: string, to: string) => {
			await page.locator('#new-title').fill(title);
			await page.locator('#new-from').fill(from);
			await page.locator('#new-to').fill(to);
			await page.getByRole('button', { name: 'Schedule', exact: true }).click();
			await page.getByRole('status').filter({ hasText: 'Scheduled.' }).waitFor();
		};
		await schedule('Old move', '2020-01-01T00:00', '2020-01-01T02:00');
		await schedule('Far upgrade', '2099-05-01T00:00', '2099-05-01T02:00');
		await schedule('Older move', '2019-01-01T00:00', '2019-01-01T02:00');
		await schedule('Long migration', '2020-06-01T00:00', '2099-01-01T00:00');
		await schedule('Next upgrade', '2098-05-01T00:00', '2098-05-01T02:00');
		// Each window's own summary (not the "Delete window…" step inside it).
		const rows = await page.locator('section > details > summary').allInnerTexts();
		expect(rows.map((r) => r.split(' · ')[0].replace(/\s+/g, ' ').trim())).toEqual([
			'In progress Long migration',
			'Upcoming Next upgrade',
			'Upcoming Far upgrade',
			'Past Old move',
			'Past Older move'
		]);
	});

	it('confirms a saved edit, and keeps ticked components on a failed save without JavaScript', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/maintenance`);
		await page.locator('summary', { hasText: 'Next upgrade' }).click();
		const edit = page.locator('form[aria-label="Edit Next upgrade"]');
		await edit.locator('input[name=title]').fill('Next DB upgrade');
		await edit.getByRole('button', { name: 'Save window' }).click();
		await page
			.getByRole('status')
			.filter({ hasText: 'Saved changes to “Next DB upgrade”.' })
			.waitFor();

		// Create: the end before the start is refused; title, ticks and notify come back.
		await page.locator('#new-title').fill('Ticks');
		await page.locator('#new-from').fill('2030-01-01T02:00');
		await page.locator('#new-to').fill('2030-01-01T01:00');
		const create = page.locator('form[action="?/create"]');
		await create.getByLabel('Public API').check();
		await create.getByLabel('Notify subscribers').check();
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		await create.getByText('End date must be after start date.').waitFor();
		expect(await page.locator('#new-title').inputValue()).toBe('Ticks');
		expect(await create.getByLabel('Public API').isChecked()).toBe(true);
		expect(await create.getByLabel('Notify subscribers').isChecked()).toBe(true);

		// Edit: the same error reopens that window's form with what was sent.
		await page.locator('summary', { hasText: 'Far upgrade' }).click();
		const far = page.locator('form[aria-label="Edit Far upgrade"]');
		await far.locator('input[name=title]').fill('Far upgrade, moved');
		await far.locator('input[name=to]').fill('2099-04-01T00:00');
		await far.getByLabel('Public API').check();
		await far.getByRole('button', { name: 'Save window' }).click();
		await far.getByText('End date must be after start date.').waitFor();
		expect(await far.isVisible()).toBe(true);
		expect(await far.locator('input[name=title]').inputValue()).toBe('Far upgrade, moved');
		expect(await far.getByLabel('Public API').isChecked()).toBe(true);
	});
});

describe('deleting a status page', () => {
	// Last: it deletes the page the tests above edit (the sign-up plan allows one).
	it('takes two steps without JavaScript: open the section that says what goes, then delete', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(base);
		const remove = page.getByRole('button', { name: 'Delete status page' });
		expect(await remove.isVisible()).toBe(false);
		await page.getByText('Delete status page…').click();
		await page.getByText('Ops status goes with its components, reports').waitFor();
		await remove.click();
		await page.waitForURL(/\/status-pages$/);
		expect(await page.getByRole('link', { name: 'Ops status' }).count()).toBe(0);
		expect((await page.goto(base))?.status()).toBe(404);
	});
});
