import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Upstate } from '../src/app.ts';
import { handleChat } from '../src/assistant/http.ts';
import { contextForSession } from '../src/auth/context.ts';
import type { Db } from '../src/db/client.ts';
import type { SubscriberNotifier } from '../src/notify/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createTestDb } from './db.ts';
import { fakeOpenAi, say, stream, toolCall } from './fake-openai.ts';
import { TEAM_LIMITS, createUser, createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate } from './upstate.ts';

// The dashboard assistant against a fake OpenAI-compatible provider (the one faked part): real
// database, real session, the router executing every tool call as the signed-in user.

let db: Db;
let upstate: Upstate;
let unconfigured: Upstate;
let provider: Awaited<ReturnType<typeof fakeOpenAi>>;
let sessionId: string;
let userId: number;
let workspaceId: number;
let pageId: number;
let otherPageId: number;
const sent: string[] = [];
const recording: SubscriberNotifier = {
	statusReport: async (e) => void sent.push(`report:${e.kind}:${e.updateId}`),
	maintenance: async (e) => void sent.push(`maintenance:${e.maintenanceId}`)
};

beforeAll(async () => {
	({ db } = await createTestDb());
	provider = await fakeOpenAi();
	upstate = createTestUpstate(db, {
		AI_BASE_URL: provider.url,
		AI_MODEL: 'test-model',
		AI_API_KEY: 'test-key',
		AI_GATEWAY_API_KEY: 'ignored-gateway-key'
	});
	upstate.notify = recording;
	unconfigured = createTestUpstate(db);
	const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'status-subscribers': true } });
	workspaceId = ws.id;
	const user = await createUser(db);
	userId = user.id;
	await db.membership.create({ data: { workspaceId, userId, role: 'owner' } });
	sessionId = (await upstate.lucia.createSession(userId, { workspaceId })).id;
	pageId = (
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Acme', slug: `acme-${ws.id}` } })
	).id;
	const other = await createWorkspace(db);
	otherPageId = (
		await createStatusPage({
			ctx: ctxFor(db, other),
			input: { title: 'Other', slug: `other-${other.id}` }
		})
	).id;
});
afterAll(() => provider.close());
beforeEach(() => {
	provider.requests.length = 0;
	provider.script.length = 0;
	sent.length = 0;
});

async function chat(
	body: unknown,
	on: Upstate = upstate,
	session: string | null = sessionId,
	accept = 'application/json'
) {
	const { ctx } = await contextForSession({ upstate: on, sessionId: session });
	const request = new Request('http://dashboard.test/assistant/chat', {
		method: 'POST',
		headers: { 'content-type': 'application/json', accept },
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
	return handleChat({ upstate: on, ctx, request });
}
const ask = (content: string, extra: Record<string, unknown> = {}) => ({
	messages: [{ role: 'user', content }],
	...extra
});
const PUBLISHING = [
	'create_status_report',
	'add_status_report_update',
	'resolve_status_report',
	'create_maintenance'
];
const newReport = (page: number, title: string) => ({
	pageId: page,
	title,
	status: 'investigating',
	message: 'Looking into it',
	notify: true // what a model might try: the toggle decides
});

describe('dashboard assistant', () => {
	it('answers 503 "Chat is not configured" without a provider, and 401 without a session', async () => {
		const res = await chat(ask('hello'), unconfigured);
		expect(res.status).toBe(503);
		expect(await res.text()).toBe('Chat is not configured');
		expect((await chat(ask('hello'), upstate, null)).status).toBe(401);
		expect(provider.requests).toHaveLength(0);
	});

	it('offers the MCP tools without notify, runs a tool call as the user with notify off by default', async () => {
		provider.script.push(
			toolCall('create_status_report', newReport(pageId, 'API errors')),
			say('Opened the report.')
		);
		const res = await chat(ask('Open a report for API errors on Acme'));
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({
			reply: 'Opened the report.',
			toolCalls: [{ name: 'create_status_report', ok: true }]
		});

		expect(provider.requests).toHaveLength(2);
		const [first, second] = provider.requests;
		expect(first.path).toBe('/v1/chat/completions');
		expect(first.headers.authorization).toBe('Bearer test-key');
		expect(first.body.model).toBe('test-model');
		expect(first.body.stream).toBe(true);
		expect(first.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
		const offered = Object.fromEntries(
			(first.body.tools ?? []).map((t) => [t.function.name, t.function])
		);
		for (const name of [...PUBLISHING, 'list_status_pages', 'update_status_report'])
			expect(offered).toHaveProperty(name);
		for (const name of PUBLISHING) {
			expect(offered[name].parameters.properties).not.toHaveProperty('notify');
			expect(offered[name].parameters.required).not.toContain('notify');
			expect(offered[name].parameters.required).toContain(
				name === 'create_maintenance' ? 'from' : 'message'
			);
		}
		// The tool result goes back to the model, tied to its call.
		expect(second.body.messages.map((m) => m.role)).toEqual([
			'system',
			'user',
			'assistant',
			'tool'
		]);
		const toolMessage = second.body.messages[3];
		expect(toolMessage.tool_call_id).toBe('call_1');
		const report = JSON.parse(toolMessage.content ?? '{}');
		expect(report).toMatchObject({ title: 'API errors', status: 'investigating' });
		expect(report.updates[0]).toMatchObject({ notify: false, notified: false });

		const stored = await db.statusReport.findMany({ where: { workspaceId, title: 'API errors' } });
		expect(stored).toHaveLength(1);
		expect(sent).toEqual([]);
		const audit = await db.auditLog.findMany({
			where: { workspaceId, entityType: 'status_report', entityId: String(stored[0].id) }
		});
		expect(audit.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
			['status_report.create', 'user', `user_${userId}`]
		]);
	});

	it('notifies subscribers only when the human toggle is on', async () => {
		provider.script.push(
			toolCall('create_status_report', { ...newReport(pageId, 'DB down'), notify: false }),
			say('Done, subscribers told.')
		);
		const res = await chat(ask('Open a report: DB down', { notify: true }));
		expect(res.status).toBe(200);
		const report = JSON.parse(provider.requests[1].body.messages[3].content ?? '{}');
		expect(report.updates[0]).toMatchObject({ notify: true, notified: true });
		expect(sent).toEqual([`report:created:${report.updates[0].id}`]);
	});

	it("gives the model NOT_FOUND for another workspace's page and changes nothing", async () => {
		const before = await db.statusReport.count();
		provider.script.push(
			toolCall('create_status_report', newReport(otherPageId, 'Cross-tenant')),
			say('That page does not exist.')
		);
		const res = await chat(ask('Open a report on page ' + otherPageId));
		expect(await res.json()).toEqual({
			reply: 'That page does not exist.',
			toolCalls: [
				{ name: 'create_status_report', ok: false, error: expect.stringMatching(/^NOT_FOUND: /) }
			]
		});
		const toolMessage = provider.requests[1].body.messages[3];
		expect(JSON.parse(toolMessage.content ?? '{}').error.code).toBe('NOT_FOUND');
		expect(await db.statusReport.count()).toBe(before);
		expect(sent).toEqual([]);
	});

	it('stops offering tools after the round limit and answers from the last round', async () => {
		for (let i = 0; i < 8; i++) provider.script.push(toolCall('list_status_pages', {}, `c${i}`));
		provider.script.push(say('Here are your pages.'));
		const res = await chat(ask('List my pages'));
		const body = (await res.json()) as { reply: string; toolCalls: unknown[] };
		expect(body.reply).toBe('Here are your pages.');
		expect(body.toolCalls).toHaveLength(8);
		expect(provider.requests).toHaveLength(9);
		expect(provider.requests[7].body.tools?.length).toBeGreaterThan(0);
		expect(provider.requests[8].body).not.toHaveProperty('tools');
	});

	it('runs no tool the model calls in the last round, and says so with a 502', async () => {
		for (let i = 0; i < 9; i++)
			provider.script.push(
				toolCall('create_status_report', newReport(pageId, `Loop ${i}`), `l${i}`)
			);
		const res = await chat(ask('Keep going'));
		expect(res.status).toBe(502);
		expect(await res.text()).toMatch(/kept calling tools after 8 rounds/);
		expect(
			await db.statusReport.count({ where: { workspaceId, title: { startsWith: 'Loop' } } })
		).toBe(8);
	});

	it('never answers with an empty turn, which the next request would refuse', async () => {
		provider.script.push(say(''));
		const body = (await (await chat(ask('hm'))).json()) as { reply: string };
		expect(body.reply).toBe('(The model gave no answer.)');
	});

	it('refuses bad input with 400 and a provider failure with 502', async () => {
		expect((await chat('not json')).status).toBe(400);
		expect((await chat({ messages: [] })).status).toBe(400);
		expect((await chat(ask('x'.repeat(8001)))).status).toBe(400);
		expect((await chat(ask('hi', { notify: 'yes' }))).status).toBe(400);
		expect(provider.requests).toHaveLength(0);
		provider.script.push({ status: 401 }, { status: 401 });
		const res = await chat(ask('hello'));
		expect(res.status).toBe(502);
		expect(await res.text()).toMatch(/model provider failed: .*401.*AI_API_KEY/);
	});
});

type Sse = { event: string; data: unknown };

// Reads server-sent events one at a time from a response body.
function events(res: Response) {
	if (!res.body) throw new Error('the response has no body');
	const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
	let buffer = '';
	return async function next(): Promise<Sse | undefined> {
		for (;;) {
			const end = buffer.indexOf('\n\n');
			if (end >= 0) {
				const frame = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				const event = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message';
				const data = /^data: (.*)$/m.exec(frame)?.[1] ?? 'null';
				return { event, data: JSON.parse(data) };
			}
			const { done, value } = await reader.read();
			if (done) return undefined;
			buffer += value;
		}
	};
}
async function allEvents(res: Response): Promise<Sse[]> {
	const next = events(res);
	const out: Sse[] = [];
	for (let e = await next(); e; e = await next()) out.push(e);
	return out;
}

describe('dashboard assistant, streamed', () => {
	it('streams tool lines, text deltas and a final event, in order', async () => {
		provider.script.push(
			toolCall('list_status_pages', {}),
			stream('You have ', 'one page: ', 'Acme.')
		);
		const res = await chat(ask('Which pages?'), upstate, sessionId, 'text/event-stream');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		expect(await allEvents(res)).toEqual([
			{ event: 'tool', data: { name: 'list_status_pages', ok: true } },
			{ event: 'delta', data: { text: 'You have ' } },
			{ event: 'delta', data: { text: 'one page: ' } },
			{ event: 'delta', data: { text: 'Acme.' } },
			{
				event: 'done',
				data: {
					reply: 'You have one page: Acme.',
					toolCalls: [{ name: 'list_status_pages', ok: true }]
				}
			}
		]);
		expect(provider.requests.map((r) => r.body.stream)).toEqual([true, true]);
	});

	it('sends the first words before the model has finished', async () => {
		let release = () => {};
		const hold = new Promise<void>((r) => (release = r));
		provider.script.push({ ...stream('Partly ', 'done.'), hold });
		const res = await chat(ask('Go'), upstate, sessionId, 'text/event-stream');
		const next = events(res);
		// The model is still holding back the rest: the first delta has already arrived.
		expect(await next()).toEqual({ event: 'delta', data: { text: 'Partly ' } });
		release();
		expect(await next()).toEqual({ event: 'delta', data: { text: 'done.' } });
		expect((await next())?.event).toBe('done');
		expect(await next()).toBeUndefined();
	});

	it('ends the stream with an error event when the provider fails; bad input is a plain 400', async () => {
		provider.script.push({ status: 500 }, { status: 500 });
		const res = await chat(ask('hello'), upstate, sessionId, 'text/event-stream');
		expect(res.status).toBe(200);
		expect(await allEvents(res)).toEqual([
			{
				event: 'error',
				data: { message: expect.stringMatching(/^The assistant's model provider failed: .*500/) }
			}
		]);
		const bad = await chat({ messages: [] }, upstate, sessionId, 'text/event-stream');
		expect(bad.status).toBe(400);
		expect(bad.headers.get('content-type')).toBe('text/plain; charset=utf-8');
	});
});

describe('dashboard assistant budget', () => {
	it('answers the 31st message in the window with 429 and when to retry; other workspaces go on', async () => {
		const budgeted = createTestUpstate(db, {
			AI_BASE_URL: provider.url,
			AI_MODEL: 'test-model'
		});
		expect(budgeted.config.chatBudget).toEqual({ requests: 30, windowSeconds: 600 });
		const session = (await budgeted.lucia.createSession(userId, { workspaceId })).id;
		for (let i = 0; i < 30; i++) provider.script.push(say(`ok ${i}`));
		for (let i = 0; i < 30; i++)
			expect((await chat(ask(`m${i}`), budgeted, session)).status).toBe(200);
		expect(provider.requests).toHaveLength(30);

		const over = await chat(ask('one more'), budgeted, session);
		expect(over.status).toBe(429);
		const retry = Number(over.headers.get('retry-after'));
		expect(retry).toBeGreaterThan(0);
		expect(retry).toBeLessThanOrEqual(600);
		const minutes = Math.ceil(retry / 60);
		expect(await over.text()).toBe(
			`This workspace has used its 30 assistant messages per 10 minutes: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
		);
		// The streamed form is refused the same way, before any stream starts.
		const streamed = await chat(ask('and more'), budgeted, session, 'text/event-stream');
		expect(streamed.status).toBe(429);
		expect(provider.requests).toHaveLength(30);

		// Another workspace (another member) has its own budget.
		const other = await createWorkspace(db);
		const otherUser = await createUser(db);
		await db.membership.create({
			data: { workspaceId: other.id, userId: otherUser.id, role: 'owner' }
		});
		const otherSession = (
			await budgeted.lucia.createSession(otherUser.id, { workspaceId: other.id })
		).id;
		provider.script.push(say('still here'));
		const res = await chat(ask('hi'), budgeted, otherSession);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ reply: 'still here', toolCalls: [] });
	});
});
