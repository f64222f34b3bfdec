import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeOpenAi, say } from '../server/test/fake-openai.ts';
import { fakeSlack } from '../server/test/fake-slack.ts';
import { slackSignature } from '../server/src/slack/signature.ts';
import { axe } from './axe.ts';
import { launchBrowser, signIn, startSmtp, startStack, type Stack } from './harness.ts';

// Settings → Integrations → Slack agent in a real browser against the built stack and a fake
// Slack Web API: "Add to Slack" goes to Slack's authorize page with a state, the callback links
// the team (the token never shows), "Disconnect" removes it.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let slack: Awaited<ReturnType<typeof fakeSlack>>;
let model: Awaited<ReturnType<typeof fakeOpenAi>>;
let browser: Browser;
let stack: Stack;
const TOKEN = 'xoxb-e2e-secret-token';

beforeAll(async () => {
	smtp = await startSmtp();
	slack = await fakeSlack();
	slack.codes.set('code-e2e', {
		team: { id: 'T_E2E', name: 'Acme Slack' },
		botUserId: 'UBOT',
		token: TOKEN
	});
	slack.emails.set('U_ADA', 'ada@example.test');
	model = await fakeOpenAi();
	browser = await launchBrowser();
	stack = await startStack({
		AI_BASE_URL: model.url,
		AI_MODEL: 'e2e-model',
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		SELF_HOST: 'true', // the self-host plan has slack-agent
		SLACK_SIGNING_SECRET: 'e2e-signing-secret',
		SLACK_CLIENT_ID: 'e2e-client',
		SLACK_CLIENT_SECRET: 'e2e-client-secret',
		SLACK_API_URL: slack.url
	});
});
afterAll(async () => {
	await stack?.stop();
	await browser?.close();
	await slack?.close();
	await model?.close();
	await smtp?.close();
});

describe('Settings → Integrations → Slack agent (e2e)', () => {
	it('adds to Slack through the OAuth round trip, shows the team, disconnects', async () => {
		const page = await browser.newPage();
		await signIn(page, { dashboard: stack.urls.dashboard, smtp, email: 'ada@example.test' });
		await page.goto(`${stack.urls.dashboard}/settings/integrations`);
		await page.getByRole('heading', { name: 'Slack agent' }).waitFor();
		expect(await axe(page, ['serious', 'critical'])).toEqual([]);
		await page.getByRole('link', { name: 'Add to Slack' }).click();
		await page.waitForURL((u) => u.pathname === '/oauth/v2/authorize');
		const authorize = new URL(page.url());
		expect(authorize.origin).toBe(new URL(slack.url).origin);
		expect(authorize.searchParams.get('client_id')).toBe('e2e-client');
		const callback = new URL(authorize.searchParams.get('redirect_uri')!);
		expect(callback.toString()).toBe(
			`${stack.urls.dashboard}/settings/integrations/slack/callback`
		);
		// What Slack does after the user allows it: back with a code and the same state.
		callback.searchParams.set('code', 'code-e2e');
		callback.searchParams.set('state', authorize.searchParams.get('state')!);
		await page.goto(callback.toString());
		await page.waitForURL(/\/settings\/integrations\?slack=connected$/);
		const box = page.getByTestId('slack-agent');
		await box.getByText('Connected to the Slack workspace Acme Slack').waitFor();
		expect(await page.content()).not.toContain(TOKEN);
		// (The browser's visit to the authorize page also reached the fake: only Web API calls count.)
		const api = slack.calls.filter((c) => !c.method.startsWith('/'));
		expect(api.map((c) => [c.method, c.body.code])).toEqual([['oauth.v2.access', 'code-e2e']]);

		// A replayed callback with a forged state is refused with a message.
		const forged = await page.request.get(
			`${stack.urls.dashboard}/settings/integrations/slack/callback?code=code-e2e&state=forged`,
			{ maxRedirects: 0 }
		);
		expect(forged.status()).toBe(400);
		expect(await forged.text()).toContain('start again from Settings → Integrations');

		// The production process serves /slack/events on the API port: a signed mention is
		// answered in its thread as the member with the Slack user's e-mail.
		model.script.push(say('Hello Ada.'));
		const body = JSON.stringify({
			type: 'event_callback',
			team_id: 'T_E2E',
			event_id: 'Ev1',
			event: { type: 'app_mention', user: 'U_ADA', text: '<@UBOT> hi', channel: 'C1', ts: '1.1' }
		});
		const at = String(Math.floor(Date.now() / 1000));
		const answered = slack.next('chat.postMessage');
		const res = await fetch(`${stack.urls.api}/slack/events`, {
			method: 'POST',
			body,
			headers: {
				'content-type': 'application/json',
				'x-slack-request-timestamp': at,
				'x-slack-signature': slackSignature('e2e-signing-secret', at, body)
			}
		});
		expect(res.status).toBe(200);
		const post = await answered;
		expect(post.headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(post.body).toEqual({ channel: 'C1', thread_ts: '1.1', text: 'Hello Ada.' });

		await box.getByRole('button', { name: 'Disconnect' }).click();
		await box.getByRole('link', { name: 'Add to Slack' }).waitFor();
	});
});
