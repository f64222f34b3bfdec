import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiServer } from '../src/api.ts';
import type { Upstate } from '../src/app.ts';
import { contextForSession } from '../src/auth/context.ts';
import type { Db } from '../src/db/client.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createCaller } from '../src/router/root.ts';
import { createSlackAgent, type SlackAgent } from '../src/slack/agent.ts';
import { disconnectSlack, finishSlackInstall, slackInstallUrl } from '../src/slack/install.ts';
import { createTestDb } from './db.ts';
import { fakeOpenAi, say, toolCall } from './fake-openai.ts';
import { fakeSlack } from './fake-slack.ts';
import { SLACK_SIGNING_SECRET, slackRequests } from './slack-requests.ts';
import { TEAM_LIMITS, createUser, createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate } from './upstate.ts';

// Attacks on the Slack agent's tenancy and its bot token (real database and API server; only
// Slack and the model are fakes). slack-agent.test.ts already covers: bad/stale signatures,
// a member of B only mentioning A's bot, another team's click, a member disconnecting, events
// after disconnect, the token sealed in the row and absent from the install's audit rows.

const TOKEN_A = 'xoxb-redteam-team-a-token';
let db: Db;
let upstate: Upstate;
let agent: SlackAgent;
let server: http.Server;
let base: string;
let provider: Awaited<ReturnType<typeof fakeOpenAi>>;
let slack: Awaited<ReturnType<typeof fakeSlack>>;
const A = { id: 0, pageId: 0, owner: { id: 0, email: '' }, member: { id: 0, email: '' } };
let ownerSession = '';
const logged: string[] = [];

const session = async (s: string) => (await contextForSession({ upstate, sessionId: s })).ctx;
const { signed, event, mention, sendEvent, click, heldId } = slackRequests(() => ({
	base,
	agent,
	slack
}));
async function holdReport(title: string, ts: string) {
	provider.script.push(
		toolCall('create_status_report', {
			pageId: A.pageId,
			title,
			status: 'investigating',
			message: 'Looking into it'
		}),
		say('Confirm?')
	);
	await sendEvent(mention(`open a report: ${title}`, 'U_ALICE', ts));
	const id = heldId();
	slack.calls.length = 0;
	provider.requests.length = 0;
	return id;
}

beforeAll(async () => {
	({ db } = await createTestDb());
	provider = await fakeOpenAi();
	slack = await fakeSlack();
	upstate = createTestUpstate(db, {
		AI_BASE_URL: provider.url,
		AI_MODEL: 'test-model',
		SLACK_SIGNING_SECRET,
		SLACK_CLIENT_ID: 'client-1',
		SLACK_CLIENT_SECRET: 'client-secret-1',
		SLACK_API_URL: slack.url
	});
	upstate.notify = { statusReport: async () => {}, maintenance: async () => {} };
	agent = createSlackAgent(upstate);
	server = http.createServer(createApiServer({ upstate, slack: agent }));
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const w = await createWorkspace(db, {
		limits: { ...TEAM_LIMITS, 'slack-agent': true, 'audit-log': true }
	});
	A.id = w.id;
	const owner = await createUser(db, `alice-${w.id}@example.test`);
	const member = await createUser(db, `carol-${w.id}@example.test`);
	A.owner = { id: owner.id, email: owner.email };
	A.member = { id: member.id, email: member.email };
	await db.membership.create({ data: { workspaceId: w.id, userId: owner.id, role: 'owner' } });
	await db.membership.create({ data: { workspaceId: w.id, userId: member.id, role: 'member' } });
	A.pageId = (
		await createStatusPage({ ctx: ctxFor(db, w), input: { title: 'a', slug: `a-${w.id}` } })
	).id;
	ownerSession = (await upstate.lucia.createSession(owner.id, { workspaceId: w.id })).id;
	slack.emails.set('U_ALICE', owner.email);
	slack.emails.set('U_CAROL', member.email);
	slack.emails.set('UBOT_A', `bot-${w.id}@example.test`);
	slack.codes.set('code-A', {
		team: { id: 'T_A', name: 'Acme' },
		botUserId: 'UBOT_A',
		token: TOKEN_A
	});
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
	// Every line the server logs, to look for the token in.
	for (const level of ['log', 'info', 'warn', 'error'] as const)
		vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

describe('Slack agent under attack', () => {
	it('install: the bot token is in no log line, audit entry or API answer', async () => {
		const ctx = await session(ownerSession);
		const state = new URL(await slackInstallUrl({ upstate, ctx })).searchParams.get('state')!;
		await finishSlackInstall({
			upstate,
			ctx,
			query: new URLSearchParams({ code: 'code-A', state })
		});
		const api = createCaller(ctx);
		const list = await api.auditLog.list({ entityType: 'slack_install' });
		expect(list.data.length).toBe(1);
		const entries = await Promise.all(list.data.map((e) => api.auditLog.get({ auditLogId: e.id })));
		const answers = JSON.stringify([list, entries]);
		expect(answers).toContain('T_A');
		expect(answers).not.toContain(TOKEN_A);
		expect(JSON.stringify(await db.auditLog.findMany())).not.toContain(TOKEN_A);
	});

	it('an app_mention from the bot itself (no bot_id) is ignored: no loop, no model call', async () => {
		await sendEvent(mention('I asked you to confirm.', 'UBOT_A', '150.1'));
		await sendEvent(
			event({
				type: 'message',
				channel_type: 'im',
				user: 'UBOT_A',
				text: 'Done.',
				channel: 'D1',
				ts: '150.2'
			})
		);
		expect(slack.calls).toEqual([]);
		expect(provider.requests).toEqual([]);
	});

	it('a replayed body is refused: old signature under a fresh timestamp is 401', async () => {
		const body = mention('list my pages', 'U_ALICE', '160.1');
		const old = Math.floor(Date.now() / 1000) - 10 * 60;
		const headers = signed(body, old);
		const fresh = String(Math.floor(Date.now() / 1000));
		for (const h of [headers, { ...headers, 'x-slack-request-timestamp': fresh }]) {
			const res = await sendEvent(body, h);
			expect(res.status).toBe(401);
		}
		// A signature for one body does not carry over to another body.
		const other = mention('delete everything', 'U_ALICE', '160.2');
		expect((await sendEvent(other, signed(body))).status).toBe(401);
		expect(slack.calls).toEqual([]);
		expect(provider.requests).toEqual([]);
	});

	it('a member removed from the workspace after the call was held cannot publish it', async () => {
		const id = await holdReport('Removed member', '170.1');
		await db.membership.delete({
			where: { workspaceId_userId: { workspaceId: A.id, userId: A.member.id } }
		});
		try {
			await click('publish_notify', id, 'U_CAROL');
			expect(await db.statusReport.count({ where: { title: 'Removed member' } })).toBe(0);
			expect(slack.calls.map((c) => c.method)).toEqual(['users.info', 'chat.postEphemeral']);
			expect(String(slack.calls[1].body.text)).toMatch(/^I can only act for members/);
			expect(await db.slackPendingCall.findUniqueOrThrow({ where: { id } })).toMatchObject({
				state: 'pending'
			});
		} finally {
			await db.membership.create({
				data: { workspaceId: A.id, userId: A.member.id, role: 'member' }
			});
		}
	});

	it('the token is in no log line, even when Slack refuses a call', async () => {
		slack.threads.set('C1:180.0', 'invalid_auth');
		provider.script.push(say('ok'));
		await sendEvent(
			event({
				type: 'app_mention',
				user: 'U_ALICE',
				text: '<@UBOT_A> hi',
				channel: 'C1',
				ts: '180.1',
				thread_ts: '180.0'
			})
		);
		await sendEvent(mention('hello', 'U_NOBODY', '180.2'));
		expect(logged.length).toBeGreaterThan(0);
		expect(logged.join('\n')).not.toContain(TOKEN_A);
		expect(JSON.stringify(provider.requests)).not.toContain(TOKEN_A);
	});

	it('after disconnect the token row is gone and a held call answers nothing', async () => {
		const id = await holdReport('After disconnect', '190.1');
		await disconnectSlack({ ctx: await session(ownerSession) });
		expect(await db.slackInstall.count({ where: { workspaceId: A.id } })).toBe(0);
		expect(JSON.stringify(await db.slackInstall.findMany())).not.toContain('T_A');
		slack.calls.length = 0;
		await click('publish', id);
		await sendEvent(mention('still there?', 'U_ALICE', '190.2'));
		expect(await db.statusReport.count({ where: { title: 'After disconnect' } })).toBe(0);
		expect(slack.calls).toEqual([]);
		expect(provider.requests).toEqual([]);
		expect(logged.join('\n')).not.toContain(TOKEN_A);
	});
});
