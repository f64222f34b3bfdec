import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Upstate } from '../src/app.ts';
import { buildTools } from '../src/adapters/mcp/tools.ts';
import { MAX_PAGE_CHARS, onSite } from '../src/assistant/docs.ts';
import { handleChat } from '../src/assistant/http.ts';
import { contextForSession } from '../src/auth/context.ts';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './db.ts';
import { fakeOpenAi, say, toolCall } from './fake-openai.ts';
import { createUser, createWorkspace } from './factories.ts';
import { createTestUpstate } from './upstate.ts';

// The assistant's docs tools against a real docs mirror on 127.0.0.1 (SERVICE_WEB_BASE_URL), a
// second server that must never be asked anything, and the fake model provider.

type Site = { url: string; paths: string[]; close: () => Promise<void> };

async function serve(routes: Record<string, { type: string; body: string; location?: string }>) {
	const paths: string[] = [];
	const server: Server = createServer((req, res) => {
		paths.push(req.url ?? '');
		const route = routes[req.url ?? ''];
		if (!route) return res.writeHead(404).end('not found');
		res.writeHead(route.location ? 302 : 200, {
			'content-type': route.type,
			...(route.location ? { location: route.location } : {})
		});
		res.end(route.body);
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		paths,
		close: () => new Promise<void>((r) => server.close(() => r()))
	} satisfies Site;
}

let db: Db;
let provider: Awaited<ReturnType<typeof fakeOpenAi>>;
let mirror: Site;
let other: Site;
let sessions: Map<Upstate, string>;
let onMirror: Upstate;
let onLocal: Upstate;
let onDown: Upstate;

const HTML_PAGE = `<!doctype html><html><head><title>Monitors</title><style>body{}</style></head>
<body><nav>Home · Pricing · Blog</nav><main><h1>Monitors</h1>
<p>An HTTP monitor checks a URL every <b>frequency</b>. Read <a href="/docs/status-pages">status pages</a>.</p>
<script>track()</script></main><footer>© Upstate</footer></body></html>`;

beforeAll(async () => {
	({ db } = await createTestDb());
	provider = await fakeOpenAi();
	other = await serve({ '/secret': { type: 'text/plain', body: 'internal' } });
	mirror = await serve({
		'/llms.txt': {
			type: 'text/plain',
			body: [
				'# Upstate',
				'',
				'> Uptime monitoring.',
				'',
				'## Docs',
				'',
				'- [Monitors](/docs/monitors): HTTP, TCP and DNS checks, frequencies and',
				'  assertions',
				'- [Status pages](/docs/status-pages): public pages, components, subscribers',
				'- [Big page](/docs/big): everything at once',
				''
			].join('\n')
		},
		'/docs/monitors': { type: 'text/html; charset=utf-8', body: HTML_PAGE },
		'/docs/status-pages': {
			type: 'text/markdown',
			body: '# Status pages\n\nSubscribers get an e-mail when a report is published.\n'
		},
		'/docs/big': { type: 'text/plain', body: 'x'.repeat(MAX_PAGE_CHARS * 2) },
		'/docs/moved': { type: 'text/plain', body: '', location: `${other.url}/secret` }
	});
	const down = await serve({});
	await down.close();
	const ai = { AI_BASE_URL: provider.url, AI_MODEL: 'test-model' };
	onMirror = createTestUpstate(db, { ...ai, SERVICE_WEB_BASE_URL: mirror.url });
	onLocal = createTestUpstate(db, ai);
	onDown = createTestUpstate(db, { ...ai, SERVICE_WEB_BASE_URL: down.url });
	const ws = await createWorkspace(db);
	const user = await createUser(db);
	await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: 'owner' } });
	sessions = new Map();
	for (const u of [onMirror, onLocal, onDown])
		sessions.set(u, (await u.lucia.createSession(user.id, { workspaceId: ws.id })).id);
});
afterAll(async () => {
	await provider.close();
	await mirror.close();
	await other.close();
});
beforeEach(() => {
	provider.requests.length = 0;
	provider.script.length = 0;
	mirror.paths.length = 0;
	other.paths.length = 0;
});

async function chat(on: Upstate, content: string) {
	const { ctx } = await contextForSession({ upstate: on, sessionId: sessions.get(on) ?? null });
	const request = new Request('http://dashboard.test/assistant/chat', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ messages: [{ role: 'user', content }] })
	});
	const res = await handleChat({ upstate: on, ctx, request });
	expect(res.status).toBe(200);
	return (await res.json()) as { reply: string; toolCalls: unknown[] };
}
// What the model was sent back for its n-th tool call (one call per round here).
const toolResult = (round: number) =>
	JSON.parse(provider.requests[round].body.messages.at(-1)?.content ?? '{}');

describe('assistant docs tools', () => {
	it('offers search_docs and get_doc_page to the model, and MCP does not have them', async () => {
		provider.script.push(say('Hi.'));
		await chat(onMirror, 'hello');
		const offered = (provider.requests[0].body.tools ?? []).map((t) => t.function.name);
		expect(offered).toEqual(expect.arrayContaining(['search_docs', 'get_doc_page']));
		expect(offered).toContain('list_monitors');
		const mcp = buildTools().map((t) => t.tool.name);
		expect(mcp).not.toContain('search_docs');
		expect(mcp).not.toContain('get_doc_page');
	});

	it('searches the mirror index, then reads a page as text for the model', async () => {
		provider.script.push(
			toolCall('search_docs', { query: 'status page subscribers' }, 's1'),
			toolCall('get_doc_page', { url: `${mirror.url}/docs/status-pages` }, 'g1'),
			toolCall('get_doc_page', { path: '/docs/monitors' }, 'g2'),
			say('Subscribers get an e-mail.')
		);
		const body = await chat(onMirror, 'How do subscribers hear about reports?');
		expect(body).toEqual({
			reply: 'Subscribers get an e-mail.',
			toolCalls: [
				{ name: 'search_docs', ok: true },
				{ name: 'get_doc_page', ok: true },
				{ name: 'get_doc_page', ok: true }
			]
		});
		expect(toolResult(1).pages[0]).toEqual({
			title: 'Status pages',
			url: `${mirror.url}/docs/status-pages`,
			context: 'public pages, components, subscribers'
		});
		expect(provider.requests[1].body.messages.at(-1)?.tool_call_id).toBe('s1');
		expect(toolResult(2)).toEqual({
			url: `${mirror.url}/docs/status-pages`,
			text: '# Status pages\n\nSubscribers get an e-mail when a report is published.\n'
		});
		// HTML comes back as text: no markup, script, navigation or footer.
		const html = toolResult(3).text as string;
		expect(html).toContain('Monitors');
		expect(html).toContain('An HTTP monitor checks a URL every frequency.');
		expect(html).toContain('status pages [/docs/status-pages]');
		for (const gone of ['<', 'track()', 'Pricing', '©']) expect(html).not.toContain(gone);
		expect(mirror.paths).toEqual(['/llms.txt', '/docs/status-pages', '/docs/monitors']);
	});

	it('finds wrapped notes and ranks title words first', async () => {
		provider.script.push(
			toolCall('search_docs', { query: 'assertions' }, 's1'),
			toolCall('search_docs', { query: 'zebra' }, 's2'),
			say('ok')
		);
		await chat(onMirror, 'assertions?');
		expect(toolResult(1).pages.map((p: { title: string }) => p.title)).toEqual(['Monitors']);
		expect(toolResult(2)).toEqual({
			pages: [],
			note: 'No page of the index matched "zebra". Pages: Monitors; Status pages; Big page.'
		});
	});

	it('refuses pages on other hosts and redirects off the site, asking them nothing', async () => {
		provider.script.push(
			toolCall('get_doc_page', { url: `${other.url}/secret` }, 'o1'),
			toolCall('get_doc_page', { url: 'file:///etc/passwd' }, 'o2'),
			toolCall('get_doc_page', { path: '/docs/moved' }, 'o3'),
			say('I cannot read that.')
		);
		const body = await chat(onMirror, 'Read the secret page');
		expect(body.toolCalls).toEqual([
			{ name: 'get_doc_page', ok: false, error: expect.stringMatching(/^VALIDATION: only pages/) },
			{ name: 'get_doc_page', ok: false, error: expect.stringMatching(/^VALIDATION: only pages/) },
			{ name: 'get_doc_page', ok: true }
		]);
		expect(toolResult(1).error).toEqual({
			code: 'VALIDATION',
			message: `only pages of the docs site ${mirror.url}/ can be read; use search_docs to find them`
		});
		expect(toolResult(3).text).toBe(
			`This resource could not be fetched just now. Read it at ${mirror.url}/docs/moved`
		);
		expect(other.paths).toEqual([]);
		expect(mirror.paths).toEqual(['/docs/moved']);
	});

	it('caps a long page and says where the rest is; a missing page is NOT_FOUND', async () => {
		provider.script.push(
			toolCall('get_doc_page', { path: '/docs/big' }, 'b1'),
			toolCall('get_doc_page', { path: '/docs/nope' }, 'b2'),
			say('ok')
		);
		const body = await chat(onMirror, 'big');
		const text = toolResult(1).text as string;
		expect(text.startsWith('x'.repeat(MAX_PAGE_CHARS) + '\n')).toBe(true);
		expect(text).toMatch(/cut at 20000 characters; the rest is at http:\/\/127.*\/docs\/big\)$/);
		expect(toolResult(2).error.code).toBe('NOT_FOUND');
		expect(body.toolCalls[1]).toMatchObject({ ok: false });
	});

	it('gives a short pointer, never an empty result, when the mirror is down', async () => {
		provider.script.push(
			toolCall('search_docs', { query: 'monitors' }, 'd1'),
			toolCall('get_doc_page', { path: '/docs/monitors' }, 'd2'),
			say('The docs are unreachable.')
		);
		const base = onDown.config.urls.web;
		await chat(onDown, 'monitors?');
		expect(toolResult(1)).toEqual({
			pages: [],
			note: `This resource could not be fetched just now. Read it at ${base}/llms.txt`
		});
		expect(toolResult(2)).toEqual({
			url: `${base}/docs/monitors`,
			text: `This resource could not be fetched just now. Read it at ${base}/docs/monitors`
		});
	});

	it('without SERVICE_WEB_BASE_URL reads the documents this install generates', async () => {
		provider.script.push(
			toolCall('search_docs', { query: 'MCP reference' }, 'l1'),
			toolCall('get_doc_page', { url: 'http://localhost:3001/docs/reference/mcp-server' }, 'l2'),
			say('ok')
		);
		await chat(onLocal, 'mcp?');
		expect(toolResult(1).pages[0]).toMatchObject({
			title: 'MCP server reference',
			url: 'http://localhost:3001/docs/reference/mcp-server'
		});
		const page = toolResult(2).text as string;
		expect(page).toContain('list_monitors');
		expect(page).toContain('## Errors');
	});

	it('keeps every address under a base path on that path', () => {
		const site = { base: new URL('https://docs.example.test/upstate/') };
		const at = (raw: string) => onSite(site, raw)?.href;
		expect(at('/upstate/docs/x')).toBe('https://docs.example.test/upstate/docs/x');
		expect(at('/docs/x')).toBe('https://docs.example.test/upstate/docs/x');
		expect(at('docs/x#part')).toBe('https://docs.example.test/upstate/docs/x');
		expect(at('https://docs.example.test/upstate')).toBe('https://docs.example.test/upstate');
		for (const outside of [
			'https://docs.example.test/other',
			'https://docs.example.test/upstate-evil/x',
			'../secret',
			'/upstate/../secret',
			'http://docs.example.test/upstate/docs/x',
			'https://docs.example.test.evil.test/upstate/x',
			'https://user@docs.example.test:444/upstate/x'
		])
			expect(at(outside)).toBeUndefined();
	});
});
