import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Upstate } from '../src/app.ts';
import { onSite } from '../src/assistant/docs.ts';
import { handleChat } from '../src/assistant/http.ts';
import { contextForSession } from '../src/auth/context.ts';
import type { Db } from '../src/db/client.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createStatusReport } from '../src/domain/status-report/index.ts';
import { createTestDb } from './db.ts';
import { fakeOpenAi, say, toolCall } from './fake-openai.ts';
import { TEAM_LIMITS, createUser, createWorkspace, ctxFor } from './factories.ts';
import { createTestUpstate } from './upstate.ts';

// Attacks on the dashboard assistant's tenancy, docs tools and budget (real database, session
// and router; only the model is a fake). assistant.test.ts already covers another workspace's
// page (create_status_report) and one direction of the budget; assistant-docs.test.ts covers
// other hosts, file:, redirects off the site and `..` under a base path.

let db: Db;
let upstate: Upstate;
let provider: Awaited<ReturnType<typeof fakeOpenAi>>;
let elsewhere: Server; // another server on 127.0.0.1: must never be asked anything
const asked: string[] = [];
let elsewhereUrl = '';
const A = { id: 0, ownerId: 0, memberId: 0, pageId: 0 };
const B = { id: 0, pageId: 0, monitorId: 0, reportId: 0 };

const session = (userId: number, workspaceId: number, on = upstate) =>
	on.lucia.createSession(userId, { workspaceId }).then((s) => s.id);
async function chat(sessionId: string, content: string, on = upstate) {
	const { ctx } = await contextForSession({ upstate: on, sessionId });
	const request = new Request('http://dashboard.test/assistant/chat', {
		method: 'POST',
		headers: { 'content-type': 'application/json', accept: 'application/json' },
		body: JSON.stringify({ messages: [{ role: 'user', content }] })
	});
	return handleChat({ upstate: on, ctx, request });
}
const toolResults = () =>
	provider.requests
		.at(-1)!
		.body.messages.filter((m) => m.role === 'tool')
		.map((m) => JSON.parse(m.content!));

beforeAll(async () => {
	({ db } = await createTestDb());
	provider = await fakeOpenAi();
	elsewhere = createServer((req, res) => {
		asked.push(req.url ?? '');
		res.end('secret');
	});
	await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
	elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
	upstate = createTestUpstate(db, { AI_BASE_URL: provider.url, AI_MODEL: 'test-model' });
	upstate.notify = { statusReport: async () => {}, maintenance: async () => {} };

	const a = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'status-subscribers': true } });
	const b = await createWorkspace(db);
	A.id = a.id;
	B.id = b.id;
	const owner = await createUser(db);
	const member = await createUser(db);
	A.ownerId = owner.id;
	A.memberId = member.id;
	await db.membership.create({ data: { workspaceId: a.id, userId: owner.id, role: 'owner' } });
	await db.membership.create({ data: { workspaceId: a.id, userId: member.id, role: 'member' } });
	A.pageId = (
		await createStatusPage({ ctx: ctxFor(db, a), input: { title: 'A', slug: `a-${a.id}` } })
	).id;
	const bCtx = ctxFor(db, b);
	B.pageId = (await createStatusPage({ ctx: bCtx, input: { title: 'B', slug: `b-${b.id}` } })).id;
	B.monitorId = (
		await createMonitor({
			ctx: bCtx,
			input: { type: 'http', name: 'b', periodicity: '1m', url: 'https://b.example' }
		})
	).id;
	B.reportId = (
		await createStatusReport({
			ctx: bCtx,
			input: {
				pageId: B.pageId,
				title: 'B report',
				status: 'investigating',
				message: 'm',
				notify: false
			}
		})
	).id;
});
afterAll(async () => {
	await provider.close();
	await new Promise<void>((r) => elsewhere.close(() => r()));
});
beforeEach(() => {
	provider.requests.length = 0;
	provider.script.length = 0;
	asked.length = 0;
});

describe('assistant under attack', () => {
	it("another workspace's monitor and report ids are NOT_FOUND to the model; nothing changes", async () => {
		const calls: Array<[string, Record<string, unknown>]> = [
			['get_monitor', { monitorId: B.monitorId }],
			['get_monitor_status', { monitorId: B.monitorId }],
			['get_monitor_summary', { monitorId: B.monitorId }],
			['list_status_reports', { pageId: B.pageId }],
			['update_status_report', { reportId: B.reportId, title: 'pwned' }],
			['add_status_report_update', { reportId: B.reportId, status: 'identified', message: 'x' }],
			['resolve_status_report', { reportId: B.reportId, message: 'x' }]
		];
		calls.forEach(([name, args], i) => provider.script.push(toolCall(name, args, `x${i}`)));
		provider.script.push(say('Nothing there.'));
		const before = JSON.stringify(
			await db.statusReport.findMany({ where: { workspaceId: B.id }, include: { updates: true } })
		);
		const res = await chat(await session(A.ownerId, A.id), 'poke at B');
		expect(res.status).toBe(200);
		const results = toolResults();
		expect(results).toHaveLength(calls.length);
		for (const r of results) expect(r.error?.code).toBe('NOT_FOUND');
		expect(JSON.stringify(results)).not.toContain('B report');
		expect(
			JSON.stringify(
				await db.statusReport.findMany({ where: { workspaceId: B.id }, include: { updates: true } })
			)
		).toBe(before);
	});

	it('a member removed mid-conversation: the next tool call is refused, the next request is 401', async () => {
		const sessionId = await session(A.memberId, A.id);
		let release!: () => void;
		const hold = new Promise<void>((r) => (release = r));
		provider.script.push(
			{
				...toolCall('create_status_report', {
					pageId: A.pageId,
					title: 'After removal',
					status: 'investigating',
					message: 'm'
				}),
				chunks: ['Opening it. '],
				hold
			},
			say('Done?')
		);
		const pending = chat(sessionId, 'open a report');
		await vi.waitFor(() => expect(provider.requests).toHaveLength(1));
		await db.membership.delete({
			where: { workspaceId_userId: { workspaceId: A.id, userId: A.memberId } }
		});
		release();
		const res = await pending;
		expect(await db.statusReport.count({ where: { title: 'After removal' } })).toBe(0);
		expect(toolResults()[0].error.code).toBe('UNAUTHORIZED');
		expect(res.status).toBe(200);

		provider.requests.length = 0;
		const again = await chat(sessionId, 'list my pages');
		expect(again.status).toBe(401);
		expect(provider.requests).toEqual([]);
	});

	it('get_doc_page refuses every trick off the docs site and asks no other server', async () => {
		const tricks = [
			{ path: '/../../etc/passwd' },
			{ path: '/docs/%2e%2e/%2e%2e/secret' },
			{ path: '//evil.example/x' },
			{ url: `${elsewhereUrl}/secret` },
			{ url: `${upstate.config.urls.web}@${elsewhereUrl.slice('http://'.length)}/secret` },
			{ url: 'https://docs@evil.example/x' },
			{ path: `/${elsewhereUrl}/secret` }
		];
		tricks.forEach((t, i) => provider.script.push(toolCall('get_doc_page', t, `d${i}`)));
		provider.script.push(say('No.'));
		const res = await chat(await session(A.ownerId, A.id), 'read the secret');
		expect(res.status).toBe(200);
		const body = (await res.json()) as { toolCalls: Array<{ ok: boolean; error?: string }> };
		for (const [i, call] of body.toolCalls.entries()) {
			// A path that normalises back onto the site may be read there (a 404 is fine); never elsewhere.
			if (call.ok)
				expect(toolResults()[i].url.startsWith(`${upstate.config.urls.web}/`)).toBe(true);
		}
		expect(asked).toEqual([]);
	});

	it('onSite: encoded dots, protocol-relative, userinfo and other ports stay off', () => {
		const site = { base: new URL('https://docs.example.test/') };
		const at = (raw: string) => onSite(site, raw)?.href;
		expect(at('/docs/%2e%2e/%2e%2e/llms.txt')).toBe('https://docs.example.test/llms.txt');
		for (const outside of [
			'//evil.example/x',
			'https://docs@evil.example/x',
			'https://docs.example.test@evil.example/x',
			'https://user:pw@docs.example.test/x',
			'https://docs@docs.example.test/x',
			'https://docs.example.test:8443/x',
			'http://127.0.0.1:9/x',
			'javascript:alert(1)'
		])
			expect(at(outside), outside).toBeUndefined();
	});

	it("the budget is the workspace's: switching workspace neither dodges nor spends another's", async () => {
		const tight = createTestUpstate(db, {
			AI_BASE_URL: provider.url,
			AI_MODEL: 'test-model',
			AI_CHAT_BUDGET_REQUESTS: '2'
		});
		// The owner of A is also a member of B: one person, two budgets.
		await db.membership.create({ data: { workspaceId: B.id, userId: A.ownerId, role: 'member' } });
		const inA = await session(A.ownerId, A.id, tight);
		const inB = await session(A.ownerId, B.id, tight);
		for (let i = 0; i < 3; i++) provider.script.push(say(`ok ${i}`));
		expect((await chat(inA, 'a1', tight)).status).toBe(200);
		expect((await chat(inA, 'a2', tight)).status).toBe(200);
		expect((await chat(inA, 'a3', tight)).status).toBe(429);
		// B has its own two; spending them does not give A any back.
		expect((await chat(inB, 'b1', tight)).status).toBe(200);
		provider.script.push(say('ok 3'));
		expect((await chat(inB, 'b2', tight)).status).toBe(200);
		expect((await chat(inB, 'b3', tight)).status).toBe(429);
		expect((await chat(inA, 'a4', tight)).status).toBe(429);
		expect(provider.requests).toHaveLength(4);
	});
});
