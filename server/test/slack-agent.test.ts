import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiServer } from '../src/api.ts';
import type { Upstate } from '../src/app.ts';
import { contextForSession } from '../src/auth/context.ts';
import { createDb, type Db } from '../src/db/client.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { getSlackInstall, unlinkSlackTeam } from '../src/domain/slack-install/index.ts';
import type { SubscriberNotifier } from '../src/notify/index.ts';
import { createSlackAgent, type SlackAgent } from '../src/slack/agent.ts';
import {
	finishSlackInstall,
	handleSlackInstall,
	slackInstallUrl,
	SLACK_SCOPES
} from '../src/slack/install.ts';
import { createTestDb } from './db.ts';
import { fakeOpenAi, say, toolCall } from './fake-openai.ts';
import { fakeSlack } from './fake-slack.ts';
import { SLACK_SIGNING_SECRET, slackRequests } from './slack-requests.ts';
import { TEAM_LIMITS, createUser, createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate } from './upstate.ts';

// The Slack agent against a fake Slack Web API and a fake model (the only faked parts): real
// database, the real API server on 127.0.0.1, every tool call run through the router.

const TOKEN_A = 'xoxb-team-a-secret-token';
let db: Db;
let dbUrl: string;
let upstate: Upstate;
let agent: SlackAgent;
let server: http.Server;
let base: string;
let provider: Awaited<ReturnType<typeof fakeOpenAi>>;
let slack: Awaited<ReturnType<typeof fakeSlack>>;
const sent: string[] = [];
const recording: SubscriberNotifier = {
	statusReport: async (e) => void sent.push(`report:${e.kind}:${e.updateId}`),
	maintenance: async (e) => void sent.push(`maintenance:${e.maintenanceId}`)
};
const A = { id: 0, pageId: 0, owner: { id: 0, email: '' }, member: { id: 0, email: '' } };
const B = { id: 0, pageId: 0, owner: { id: 0, email: '' } };
let freeOwnerSession = '';
let ownerSession = '';
let memberSession = '';
let bOwnerSession = '';

const session = async (s: string) => (await contextForSession({ upstate, sessionId: s })).ctx;
const { signed, post, event, mention, sendEvent, clickBody, click, posted, heldId } = slackRequests(
	() => ({ base, agent, slack })
);
const env = () => ({
	AI_BASE_URL: provider.url,
	AI_MODEL: 'test-model',
	SLACK_SIGNING_SECRET,
	SLACK_CLIENT_ID: 'client-1',
	SLACK_CLIENT_SECRET: 'client-secret-1',
	SLACK_API_URL: slack.url
});
const methods = () => slack.calls.map((c) => c.method);
const newReport = (page: number, title: string) => ({
	pageId: page,
	title,
	status: 'investigating',
	message: 'Looking into it',
	notify: true // the model's try: the button decides
});

async function install(sessionId: string, code: string) {
	const ctx = await session(sessionId);
	const url = new URL(await slackInstallUrl({ upstate, ctx }));
	return finishSlackInstall({
		upstate,
		ctx,
		query: new URLSearchParams({ code, state: url.searchParams.get('state')! })
	});
}

beforeAll(async () => {
	({ db, url: dbUrl } = await createTestDb());
	provider = await fakeOpenAi();
	slack = await fakeSlack();
	upstate = createTestUpstate(db, env());
	upstate.notify = recording;
	agent = createSlackAgent(upstate);
	server = http.createServer(createApiServer({ upstate, slack: agent }));
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const limits = { ...TEAM_LIMITS, 'slack-agent': true, 'status-subscribers': true };
	for (const [ws, who] of [
		[A, 'alice'],
		[B, 'bob']
	] as const) {
		const w = await createWorkspace(db, { limits });
		ws.id = w.id;
		const owner = await createUser(db, `${who}-${w.id}@example.test`);
		ws.owner = { id: owner.id, email: owner.email };
		await db.membership.create({ data: { workspaceId: w.id, userId: owner.id, role: 'owner' } });
		ws.pageId = (
			await createStatusPage({ ctx: ctxFor(db, w), input: { title: who, slug: `${who}-${w.id}` } })
		).id;
	}
	const member = await createUser(db, `carol-${A.id}@example.test`);
	A.member = { id: member.id, email: member.email };
	await db.membership.create({ data: { workspaceId: A.id, userId: member.id, role: 'member' } });
	const free = await createWorkspace(db, { plan: 'free', limits: {} });
	const freeOwner = await createUser(db);
	await db.membership.create({
		data: { workspaceId: free.id, userId: freeOwner.id, role: 'owner' }
	});
	const open = (userId: number, workspaceId: number) =>
		upstate.lucia.createSession(userId, { workspaceId }).then((s) => s.id);
	ownerSession = await open(A.owner.id, A.id);
	memberSession = await open(A.member.id, A.id);
	bOwnerSession = await open(B.owner.id, B.id);
	freeOwnerSession = await open(freeOwner.id, free.id);

	slack.codes.set('code-A', {
		team: { id: 'T_A', name: 'Acme Slack' },
		botUserId: 'UBOT_A',
		token: TOKEN_A
	});
	slack.emails.set('U_ALICE', A.owner.email.toUpperCase()); // matched case-insensitively
	slack.emails.set('U_CAROL', A.member.email);
	slack.emails.set('U_BOB', B.owner.email); // a member of B only
	slack.emails.set('U_STRANGER', 'stranger@example.test');
	slack.names.set('U_ALICE', 'Alice');
	slack.names.set('U_CAROL', 'Carol');
});
afterAll(async () => {
	await new Promise<void>((r) => server.close(() => r()));
	await provider.close();
	await slack.close();
});
beforeEach(() => {
	provider.requests.length = 0;
	provider.script.length = 0;
	slack.calls.length = 0;
	sent.length = 0;
});

describe('Slack agent: install', () => {
	it('is off without the SLACK_* variables: 503 naming them', async () => {
		const off = createSlackAgent(createTestUpstate(db));
		const answer = await off.events({ header: () => null, body: '{}' });
		expect(answer.status).toBe(503);
		expect(answer.body).toBe(
			'The Slack agent is off on this server: set SLACK_SIGNING_SECRET, SLACK_CLIENT_ID, SLACK_CLIENT_SECRET'
		);
	});

	it('refuses members and plans without slack-agent before sending anyone to Slack', async () => {
		await expect(
			slackInstallUrl({ upstate, ctx: await session(memberSession) })
		).rejects.toMatchObject({ code: 'FORBIDDEN' });
		await expect(
			slackInstallUrl({ upstate, ctx: await session(freeOwnerSession) })
		).rejects.toMatchObject({
			code: 'LIMIT_EXCEEDED',
			message: "your plan does not include 'slack-agent'"
		});
		expect(slack.calls).toEqual([]);
	});

	it('refuses a forged state and another session’s state, exchanging nothing', async () => {
		const ctx = await session(ownerSession);
		const state = new URL(await slackInstallUrl({ upstate, ctx })).searchParams.get('state')!;
		const forged = state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA');
		const other = await session(
			(await upstate.lucia.createSession(A.owner.id, { workspaceId: A.id })).id
		);
		for (const [c, s] of [
			[ctx, forged],
			[other, state],
			[await session(bOwnerSession), state]
		] as const)
			await expect(
				finishSlackInstall({
					upstate,
					ctx: c,
					query: new URLSearchParams({ code: 'code-A', state: s })
				})
			).rejects.toMatchObject({ code: 'VALIDATION' });
		expect(slack.calls).toEqual([]);
		expect(await getSlackInstall({ ctx: ctx.service! })).toBeNull();
	});

	it('links the team with the token sealed, audited, never shown; one team per workspace', async () => {
		const ctx = await session(ownerSession);
		const url = new URL(await slackInstallUrl({ upstate, ctx }));
		expect(url.origin + url.pathname).toBe(new URL('/oauth/v2/authorize', slack.url).toString());
		expect(url.searchParams.get('client_id')).toBe('client-1');
		expect(url.searchParams.get('scope')).toBe(SLACK_SCOPES.join(','));
		expect(url.searchParams.get('scope')).toBe(
			'app_mentions:read,channels:history,chat:write,groups:history,im:history,mpim:history,users:read,users:read.email'
		);
		const redirect = `${upstate.config.urls.dashboard}/settings/integrations/slack/callback`;
		expect(url.searchParams.get('redirect_uri')).toBe(redirect);

		const linked = await install(ownerSession, 'code-A');
		expect(linked).toEqual({ teamId: 'T_A', teamName: 'Acme Slack', createdAt: expect.any(Date) });
		expect(slack.calls).toEqual([
			{
				method: 'oauth.v2.access',
				headers: expect.objectContaining({
					authorization: `Basic ${Buffer.from('client-1:client-secret-1').toString('base64')}`
				}),
				body: { code: 'code-A', redirect_uri: redirect }
			}
		]);
		const row = await db.slackInstall.findUniqueOrThrow({ where: { teamId: 'T_A' } });
		expect(row).toMatchObject({ workspaceId: A.id, installedByUserId: A.owner.id });
		expect(row.botToken).not.toContain(TOKEN_A);
		const shown = JSON.stringify(await getSlackInstall({ ctx: ctx.service! }));
		expect(shown).not.toContain(TOKEN_A);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: A.id, entityType: 'slack_install' }
		});
		expect(audit.map((a) => [a.action, a.actorType, a.actorUserId])).toEqual([
			['slack_install.create', 'user', A.owner.id]
		]);
		expect(JSON.stringify(audit)).not.toContain(TOKEN_A);

		// The same Slack team cannot also be linked to workspace B.
		await expect(install(bOwnerSession, 'code-A')).rejects.toMatchObject({ code: 'CONFLICT' });
		expect((await db.slackInstall.findMany({ where: { teamId: 'T_A' } })).length).toBe(1);
	});

	it('the dashboard routes: 303 to Slack, refusals as 4xx text, a failed exchange as 502', async () => {
		const route = async (sessionId: string, step: 'start' | 'callback', query = '') =>
			handleSlackInstall({
				upstate,
				ctx: await session(sessionId),
				step,
				url: new URL(`http://dashboard.test/settings/integrations/slack?${query}`)
			});
		const start = await route(ownerSession, 'start');
		expect(start.status).toBe(303);
		const to = new URL(start.headers.get('location')!);
		expect(to.pathname).toBe('/oauth/v2/authorize');
		const member = await route(memberSession, 'start');
		expect([member.status, await member.text()]).toEqual([
			403,
			'Slack agent: this action needs the role owner or admin'
		]);
		const free = await route(freeOwnerSession, 'start');
		expect([free.status, await free.text()]).toEqual([
			403,
			"Slack agent: your plan does not include 'slack-agent'"
		]);
		const state = to.searchParams.get('state')!;
		const forged = await route(ownerSession, 'callback', `code=code-A&state=x${state}`);
		expect(forged.status).toBe(400);
		expect(slack.calls).toEqual([]);
		const bad = await route(ownerSession, 'callback', `code=nope&state=${state}`);
		expect([bad.status, await bad.text()]).toEqual([
			502,
			'Slack agent: Slack oauth.v2.access failed: invalid_code: start again from Settings → Integrations'
		]);
		const off = await handleSlackInstall({
			upstate: createTestUpstate(db),
			ctx: await session(ownerSession),
			step: 'start',
			url: new URL('http://dashboard.test/')
		});
		expect(off.status).toBe(503);
		expect(await db.slackInstall.count({ where: { workspaceId: A.id } })).toBe(1);
	});
});

describe('Slack agent: events', () => {
	it('answers 401 to a bad signature or a stale timestamp, doing nothing', async () => {
		const body = mention('list my pages');
		const stale = Math.floor(Date.now() / 1000) - 6 * 60;
		const cases: Record<string, string>[] = [
			signed(body, undefined, 'wrong-secret'),
			signed(body, stale),
			{ 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) },
			{}
		];
		for (const headers of cases) {
			const res = await post('/slack/events', body, {
				'content-type': 'application/json',
				...headers
			});
			expect(res.status).toBe(401);
			expect(await res.text()).toBe('invalid Slack signature or stale timestamp');
		}
		await agent.idle();
		expect(slack.calls).toEqual([]);
		expect(provider.requests).toEqual([]);
	});

	it('/slack/interactions checks the same signature: 401 and nothing run', async () => {
		const body = new URLSearchParams({
			payload: JSON.stringify({ type: 'block_actions', actions: [{ action_id: 'publish' }] })
		}).toString();
		const res = await post('/slack/interactions', body, {
			'content-type': 'application/x-www-form-urlencoded',
			...signed(body, undefined, 'wrong-secret')
		});
		expect(res.status).toBe(401);
		await agent.idle();
		expect(slack.calls).toEqual([]);
	});

	it('answers url_verification with the challenge', async () => {
		const res = await sendEvent(JSON.stringify({ type: 'url_verification', challenge: 'ch-123' }));
		expect(res.status).toBe(200);
		expect(await res.text()).toBe('ch-123');
	});

	it('posts the model’s answer in the thread with the bot token, as the matching member', async () => {
		provider.script.push(say('You have one page: alice. <!channel> & more'));
		const res = await sendEvent(mention('list my pages', 'U_ALICE', '100.1'));
		expect(res.status).toBe(200);
		expect(methods()).toEqual(['users.info', 'chat.postMessage']);
		expect(slack.calls[0].body).toEqual({ user: 'U_ALICE' });
		for (const c of slack.calls) expect(c.headers.authorization).toBe(`Bearer ${TOKEN_A}`);
		expect(slack.calls[1].body).toEqual({
			channel: 'C1',
			thread_ts: '100.1',
			text: 'You have one page: alice. &lt;!channel&gt; &amp; more' // shown, not a ping
		});
		expect(provider.requests).toHaveLength(1);
		expect(provider.requests[0].body.messages[0].content).toMatch(
			/^You are the Upstate assistant in Slack, acting in one Upstate workspace\. /
		);
		expect(provider.requests[0].body.messages.at(-1)).toEqual({
			role: 'user',
			content: 'list my pages'
		});
	});

	it('answers a direct message in its thread; ignores bot messages and retries', async () => {
		provider.script.push(say('Hello.'));
		await sendEvent(
			event({
				type: 'message',
				channel_type: 'im',
				user: 'U_ALICE',
				text: 'hi',
				channel: 'D1',
				ts: '5.5'
			})
		);
		expect(posted().map((c) => c.body)).toEqual([
			{ channel: 'D1', thread_ts: '5.5', text: 'Hello.' }
		]);
		slack.calls.length = 0;
		await sendEvent(
			event({
				type: 'message',
				channel_type: 'im',
				bot_id: 'B1',
				user: 'UBOT_A',
				text: 'Hello.',
				channel: 'D1',
				ts: '5.6'
			})
		);
		await sendEvent(mention('again'), { 'x-slack-retry-num': '1' });
		expect(slack.calls).toEqual([]);
		expect(provider.requests).toHaveLength(1); // the direct message only
		provider.requests.length = 0;
		provider.script.push(say('Once.'));
		const body = mention('twice', 'U_ALICE', '7.7');
		await sendEvent(body);
		expect(provider.requests).toHaveLength(1);
		await sendEvent(body); // the same event_id again: nothing
		expect(provider.requests).toHaveLength(1);
	});

	it('tells a Slack user with no member how to get access, never calling the model', async () => {
		await sendEvent(mention('list my pages', 'U_STRANGER', '200.1'));
		await sendEvent(mention('list my pages', 'U_BOB', '200.2')); // a member of B, not of A
		expect(provider.requests).toEqual([]);
		expect(posted().map((c) => c.body.text)).toEqual([
			'I can only act for members of the linked Upstate workspace, and none has the e-mail address stranger@example.test. Ask an owner or admin to invite that address (Upstate → Settings → Members), then mention me again.',
			expect.stringContaining(`the e-mail address ${B.owner.email}.`)
		]);
	});
});

describe('Slack agent: thread context', () => {
	const inThread = (thread: string, ts: string, text: string) =>
		event({
			type: 'app_mention',
			user: 'U_ALICE',
			text: `<@UBOT_A> ${text}`,
			channel: 'C1',
			ts,
			thread_ts: thread
		});
	const system = { role: 'system', content: expect.any(String) };

	it('sends the thread’s earlier messages in order: the bot’s as assistant, others’ named', async () => {
		slack.threads.set('C1:800.0', [
			{ ts: '800.0', user: 'U_CAROL', text: 'the API is slow' },
			{ ts: '800.1', user: 'UBOT_A', bot_id: 'B1', text: 'Which endpoint?' },
			{ ts: '800.2', user: 'U_ALICE', text: '<@UBOT_A> /v1/checks' },
			{ ts: '800.3', user: 'U_ALICE', text: '<@UBOT_A> open a report' },
			{ ts: '800.4', user: 'U_CAROL', text: 'later, not sent' }
		]);
		provider.script.push(say('Noted.'));
		await sendEvent(inThread('800.0', '800.3', 'open a report'));
		expect(slack.calls.map((c) => [c.method, c.body])).toEqual([
			['users.info', { user: 'U_ALICE' }],
			[
				'conversations.replies',
				{ channel: 'C1', ts: '800.0', latest: '800.3', inclusive: 'false', limit: '200' }
			],
			['users.info', { user: 'U_CAROL' }],
			['chat.postMessage', { channel: 'C1', thread_ts: '800.0', text: 'Noted.' }]
		]);
		expect(provider.requests[0].body.messages).toEqual([
			system,
			{ role: 'user', content: 'Carol: the API is slow' },
			{ role: 'assistant', content: 'Which endpoint?' },
			{ role: 'user', content: 'Alice: /v1/checks' },
			{ role: 'user', content: 'open a report' }
		]);
	});

	it('keeps the last 20 messages and about 8,000 characters, dropping the oldest', async () => {
		slack.threads.set(
			'C1:810.0',
			Array.from({ length: 25 }, (_, i) => ({
				ts: `810.${10 + i}`,
				user: 'U_CAROL',
				text: `m${i}`
			}))
		);
		provider.script.push(say('Twenty.'));
		await sendEvent(inThread('810.0', '811.0', 'count them'));
		const many = provider.requests[0].body.messages.slice(1, -1).map((m) => m.content);
		expect(many).toEqual(Array.from({ length: 20 }, (_, i) => `Carol: m${i + 5}`));

		const long = (c: string) => c.repeat(3000);
		slack.threads.set('C1:820.0', [
			{ ts: '820.0', user: 'U_CAROL', text: long('a') },
			{ ts: '820.1', user: 'U_CAROL', text: long('b') },
			{ ts: '820.2', user: 'UBOT_A', text: long('c') }
		]);
		provider.requests.length = 0;
		provider.script.push(say('Long.'));
		await sendEvent(inThread('820.0', '820.3', 'and now?'));
		expect(provider.requests[0].body.messages.slice(1)).toEqual([
			{ role: 'user', content: `Carol: ${long('b')}` },
			{ role: 'assistant', content: long('c') },
			{ role: 'user', content: 'and now?' }
		]);
	});

	it('answers the message alone when Slack refuses the thread', async () => {
		slack.threads.set('C1:830.0', 'missing_scope');
		provider.script.push(say('Alone.'));
		await sendEvent(inThread('830.0', '830.5', 'status?'));
		expect(provider.requests[0].body.messages).toEqual([
			system,
			{ role: 'user', content: 'status?' }
		]);
		expect(posted().map((c) => c.body)).toEqual([
			{ channel: 'C1', thread_ts: '830.0', text: 'Alone.' }
		]);
	});
});

describe('Slack agent: the human toggle', () => {
	it('holds a publishing call behind three buttons; Publish runs it once without notifying', async () => {
		provider.script.push(
			toolCall('create_status_report', newReport(A.pageId, 'API errors')),
			say('I asked you to confirm.')
		);
		await sendEvent(mention('open a report for API errors', 'U_ALICE', '300.1'));
		expect(await db.statusReport.count({ where: { title: 'API errors' } })).toBe(0);
		const [buttons, reply] = posted();
		expect(buttons.body).toMatchObject({ channel: 'C1', thread_ts: '300.1' });
		const actions = (buttons.body.blocks as Array<{ type: string; elements?: unknown[] }>)[1];
		expect(actions.elements).toEqual([
			expect.objectContaining({
				action_id: 'publish',
				text: { type: 'plain_text', text: 'Publish' }
			}),
			expect.objectContaining({
				action_id: 'publish_notify',
				text: { type: 'plain_text', text: 'Publish and notify' }
			}),
			expect.objectContaining({ action_id: 'cancel', text: { type: 'plain_text', text: 'Cancel' } })
		]);
		expect(String(buttons.body.text)).not.toContain('notify');
		expect(reply.body).toEqual({
			channel: 'C1',
			thread_ts: '300.1',
			text: 'I asked you to confirm.'
		});
		const toolMessage = provider.requests[1].body.messages.at(-1)!;
		expect(JSON.parse(toolMessage.content!)).toMatchObject({ held: true });

		const id = heldId();
		slack.calls.length = 0;
		expect((await click('publish', id)).status).toBe(200);
		const reports = await db.statusReport.findMany({
			where: { title: 'API errors' },
			include: { updates: true }
		});
		expect(reports).toHaveLength(1);
		expect(reports[0].workspaceId).toBe(A.id);
		expect(reports[0].updates[0]).toMatchObject({ notify: false, notified: false });
		expect(sent).toEqual([]);
		const audit = await db.auditLog.findMany({
			where: { entityType: 'status_report', entityId: String(reports[0].id) }
		});
		expect(audit.map((a) => [a.action, a.actorType, a.actorUserId])).toEqual([
			['status_report.create', 'user', A.owner.id]
		]);
		expect(methods()).toEqual(['users.info', 'chat.update']);
		expect(slack.calls[1].body).toEqual({
			channel: 'C1',
			ts: 'held-ts',
			text: `Done by ${A.owner.email}: \`create_status_report\` published without notifying subscribers.`,
			blocks: []
		});

		// A second click (either button) changes nothing and says so.
		slack.calls.length = 0;
		await click('publish_notify', id, 'U_CAROL');
		expect(await db.statusReport.count({ where: { title: 'API errors' } })).toBe(1);
		expect(sent).toEqual([]);
		expect(slack.calls.map((c) => [c.method, c.body])).toEqual([
			[
				'chat.postEphemeral',
				{
					channel: 'C1',
					user: 'U_CAROL',
					text: `Already done: Done by ${A.owner.email}: \`create_status_report\` published without notifying subscribers.`
				}
			]
		]);
	});

	it('"Publish and notify" notifies, as the member who clicked', async () => {
		provider.script.push(
			toolCall('create_status_report', { ...newReport(A.pageId, 'DB down'), notify: false }),
			say('Waiting for you.')
		);
		await sendEvent(mention('open a report: DB down', 'U_ALICE', '400.1'));
		const id = heldId();
		await click('publish_notify', id, 'U_CAROL'); // a plain member may publish, as in the dashboard
		const report = await db.statusReport.findFirstOrThrow({
			where: { title: 'DB down' },
			include: { updates: true }
		});
		expect(report.updates[0]).toMatchObject({ notify: true, notified: true });
		expect(sent).toEqual([`report:created:${report.updates[0].id}`]);
		const audit = await db.auditLog.findFirstOrThrow({
			where: { entityType: 'status_report', entityId: String(report.id) }
		});
		expect(audit.actorUserId).toBe(A.member.id);
	});

	it('Cancel runs nothing; a click by a non-member runs nothing and leaves it pending', async () => {
		provider.script.push(
			toolCall('create_maintenance', {
				title: 'Upgrade',
				message: 'DB upgrade',
				from: '2030-01-01T00:00:00Z',
				to: '2030-01-01T01:00:00Z',
				pageId: A.pageId
			}),
			say('Confirm in the buttons.')
		);
		await sendEvent(mention('plan a maintenance', 'U_ALICE', '500.1'));
		const id = heldId();
		slack.calls.length = 0;
		await click('publish', id, 'U_STRANGER');
		expect(await db.maintenance.count({ where: { title: 'Upgrade' } })).toBe(0);
		expect(slack.calls.map((c) => c.method)).toEqual(['users.info', 'chat.postEphemeral']);
		slack.calls.length = 0;
		await click('cancel', id, 'U_ALICE');
		expect(await db.maintenance.count({ where: { title: 'Upgrade' } })).toBe(0);
		expect(slack.calls.at(-1)?.body).toMatchObject({
			ts: 'held-ts',
			text: `Cancelled by ${A.owner.email}: \`create_maintenance\` was not run.`
		});
	});
});

describe('Slack agent: held calls live in the database', () => {
	// Another API process: its own database client on the same file, its own agent.
	function replica(): SlackAgent {
		const other = createTestUpstate(createDb({ url: dbUrl }), {
			...env(),
			AUTH_SECRET: upstate.config.authSecret
		});
		other.notify = recording;
		return createSlackAgent(other);
	}
	const clickOn = (on: SlackAgent, action: string, value: string, user = 'U_ALICE') => {
		const body = clickBody(action, value, user);
		const headers: Record<string, string> = signed(body);
		return on.interactions({ header: (n) => headers[n] ?? null, body });
	};
	async function holdReport(title: string, ts: string) {
		provider.script.push(
			toolCall('create_status_report', newReport(A.pageId, title)),
			say('Confirm?')
		);
		await sendEvent(mention(`open a report: ${title}`, 'U_ALICE', ts));
		const id = heldId();
		slack.calls.length = 0;
		return id;
	}

	it('stores the held call; after a restart the button still runs it, once', async () => {
		provider.script.push(
			toolCall('create_status_report', newReport(A.pageId, 'Restart')),
			say('Confirm?')
		);
		await sendEvent(mention('open a report: Restart', 'U_ALICE', '900.1'));
		const id = heldId();
		const row = await db.slackPendingCall.findUniqueOrThrow({ where: { id } });
		expect(row).toMatchObject({
			workspaceId: A.id,
			teamId: 'T_A',
			channelId: 'C1',
			toolName: 'create_status_report',
			requestedByUserId: A.owner.id,
			state: 'pending',
			outcome: null
		});
		// The model's `notify` is not kept: the button decides.
		expect(JSON.parse(row.input)).toEqual({
			pageId: A.pageId,
			title: 'Restart',
			status: 'investigating',
			message: 'Looking into it'
		});
		expect(row.messageTs).toMatch(/^\d+$/);
		expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(30 * 60 * 1000);

		slack.calls.length = 0;
		const restarted = replica();
		await clickOn(restarted, 'publish', id);
		await restarted.idle();
		expect(await db.statusReport.count({ where: { title: 'Restart', workspaceId: A.id } })).toBe(1);
		expect(methods()).toEqual(['users.info', 'chat.update']);
		const done = `Done by ${A.owner.email}: \`create_status_report\` published without notifying subscribers.`;
		expect(await db.slackPendingCall.findUniqueOrThrow({ where: { id } })).toMatchObject({
			state: 'done',
			outcome: done
		});
		slack.calls.length = 0;
		await click('publish', id); // the first process
		expect(await db.statusReport.count({ where: { title: 'Restart' } })).toBe(1);
		expect(slack.calls.map((c) => [c.method, c.body.text])).toEqual([
			['chat.postEphemeral', `Already done: ${done}`]
		]);
	});

	it('two clicks at once on two processes: one report, one "already done"', async () => {
		const id = await holdReport('Race', '910.1');
		const [one, two] = [replica(), replica()];
		await Promise.all([clickOn(one, 'publish', id), clickOn(two, 'publish_notify', id, 'U_CAROL')]);
		await Promise.all([one.idle(), two.idle()]);
		const reports = await db.statusReport.findMany({
			where: { title: 'Race' },
			include: { updates: true }
		});
		expect(reports).toHaveLength(1);
		expect(sent).toHaveLength(reports[0].updates[0].notify ? 1 : 0);
		expect(
			methods()
				.filter((m) => m !== 'users.info')
				.sort()
		).toEqual(['chat.postEphemeral', 'chat.update']);
		const ephemeral = slack.calls.find((c) => c.method === 'chat.postEphemeral')!;
		expect(String(ephemeral.body.text)).toMatch(/^Already done: /);
		expect(slack.calls.find((c) => c.method === 'chat.update')?.body.text).toMatch(/^Done by /);
	});

	it('an expired call is answered with the expiry message, runs nothing, and is swept', async () => {
		const id = await holdReport('Too late', '920.1');
		await db.slackPendingCall.update({
			where: { id },
			data: { expiresAt: new Date(Date.now() - 1000) }
		});
		await click('publish_notify', id);
		expect(await db.statusReport.count({ where: { title: 'Too late' } })).toBe(0);
		expect(sent).toEqual([]);
		expect(slack.calls.map((c) => [c.method, c.body.text])).toEqual([
			['chat.postEphemeral', 'This request has expired: ask me again.']
		]);
		expect(await db.slackPendingCall.findUniqueOrThrow({ where: { id } })).toMatchObject({
			state: 'pending'
		});
		await holdReport('Next', '920.2'); // holding the next call deletes expired rows
		expect(await db.slackPendingCall.findUnique({ where: { id } })).toBeNull();
	});
});

describe('Slack agent: tenancy', () => {
	it('a team linked to workspace A never reads or writes workspace B', async () => {
		provider.script.push(
			toolCall('list_status_reports', { pageId: B.pageId }),
			toolCall('create_status_report', newReport(B.pageId, 'Cross-tenant'), 'call_2'),
			say('That page does not exist.')
		);
		await sendEvent(mention(`open a report on page ${B.pageId}`, 'U_ALICE', '600.1'));
		const read = provider.requests[1].body.messages.at(-1)!;
		expect(JSON.parse(read.content!).error.code).toBe('NOT_FOUND');
		await click('publish', heldId());
		expect(await db.statusReport.count({ where: { workspaceId: B.id } })).toBe(0);
		expect(slack.calls.at(-1)?.body.text).toMatch(
			/^`create_status_report` failed for .*: NOT_FOUND: /
		);
	});

	it("another team's click on A's held call finds nothing and runs nothing", async () => {
		slack.codes.set('code-B', {
			team: { id: 'T_B', name: 'Bob Slack' },
			botUserId: 'UBOT_B',
			token: 'xoxb-team-b-token'
		});
		await install(bOwnerSession, 'code-B');
		provider.script.push(
			toolCall('create_status_report', newReport(A.pageId, 'Team B click')),
			say('Confirm?')
		);
		await sendEvent(mention('open a report', 'U_ALICE', '650.1'));
		const id = heldId();
		slack.calls.length = 0;
		await click('publish', id, 'U_BOB', 'T_B');
		expect(await db.statusReport.count({ where: { title: 'Team B click' } })).toBe(0);
		expect(slack.calls.map((c) => [c.method, c.headers.authorization, c.body.text])).toEqual([
			['chat.postEphemeral', 'Bearer xoxb-team-b-token', 'This request has expired: ask me again.']
		]);
		// Still pending for team A.
		await click('publish', id, 'U_ALICE', 'T_A');
		expect(
			await db.statusReport.count({ where: { title: 'Team B click', workspaceId: A.id } })
		).toBe(1);
	});

	it('a linked workspace whose plan lost slack-agent gets the plan message, no model call', async () => {
		const limits = { ...TEAM_LIMITS, 'slack-agent': false };
		await db.workspace.update({ where: { id: B.id }, data: { limits: JSON.stringify(limits) } });
		await sendEvent(mention('list my pages', 'U_BOB', '680.1').replace('"T_A"', '"T_B"'));
		expect(provider.requests).toEqual([]);
		expect(slack.calls.map((c) => [c.method, c.headers.authorization, c.body.text])).toEqual([
			[
				'chat.postMessage',
				'Bearer xoxb-team-b-token',
				"your plan does not include 'slack-agent': an owner can change the plan, or disconnect Slack in Upstate → Settings → Integrations."
			]
		]);
	});

	it('"Disconnect" removes the link: events from the team then do nothing', async () => {
		const ctx = (await session(ownerSession)).service!;
		await expect(
			unlinkSlackTeam({ ctx: (await session(memberSession)).service! })
		).rejects.toMatchObject({
			code: 'FORBIDDEN'
		});
		await unlinkSlackTeam({ ctx });
		expect(await getSlackInstall({ ctx })).toBeNull();
		await sendEvent(mention('anyone there?', 'U_ALICE', '700.1'));
		expect(slack.calls).toEqual([]);
		expect(provider.requests).toEqual([]);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: A.id, entityType: 'slack_install' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => a.action)).toEqual(['slack_install.create', 'slack_install.delete']);
	});
});
