import { convert } from 'html-to-text';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Config } from '../config.ts';
import {
	docsBase,
	fetchDocument,
	localDocument,
	unreachablePointer
} from '../adapters/mcp/resources.ts';
import type { McpTool } from '../adapters/mcp/tools.ts';

// The assistant's own docs tools (spec 1.3 rule 2), not MCP's: `search_docs` over the site index
// (llms.txt) and `get_doc_page` for one page of the docs site: SERVICE_WEB_BASE_URL when set,
// else this install's API server, whose documents are generated in place (no request goes out).

export const MAX_PAGE_CHARS = 20_000;
export const MAX_SEARCH_RESULTS = 5;

export type DocsSite = {
	base: URL; // every page the tools read is on this origin, under this path
	local?: (path: string) => string | undefined;
};

export function docsSite(urls: Config['urls'], tools: () => McpTool[]): DocsSite {
	const base = new URL(docsBase(urls));
	if (!base.pathname.endsWith('/')) base.pathname += '/';
	if (urls.web) return { base };
	return { base, local: (path) => localDocument(urls, tools(), path) };
}

const SearchInput = z.object({
	query: z.string().trim().min(1).max(200).describe('Words to look for in the docs index')
});
const PageInput = z
	.object({
		url: z.string().max(2000).optional().describe('A page URL, as search_docs returns it'),
		path: z.string().max(2000).optional().describe('Or a path on the docs site, e.g. /llms.txt')
	})
	.refine((v) => (v.url === undefined) !== (v.path === undefined), 'give either url or path');

export const DOCS_TOOLS: ChatCompletionTool[] = [
	{
		type: 'function',
		function: {
			name: 'search_docs',
			description:
				'Search the Upstate documentation index for pages about a topic; returns the best few pages (title, url, context). Follow up with get_doc_page.',
			parameters: z.toJSONSchema(SearchInput)
		}
	},
	{
		type: 'function',
		function: {
			name: 'get_doc_page',
			description: `Read one page of the Upstate documentation site as text (at most ${MAX_PAGE_CHARS} characters). Only pages of the docs site can be read.`,
			parameters: z.toJSONSchema(PageInput)
		}
	}
];

export type DocsResult = { ok: boolean; error?: string; content: unknown };

const fail = (code: string, message: string): DocsResult => ({
	ok: false,
	error: `${code}: ${message}`,
	content: { error: { code, message } }
});

export async function runDocsTool(
	site: DocsSite,
	name: string,
	input: unknown
): Promise<DocsResult | undefined> {
	if (name === 'search_docs') {
		const parsed = SearchInput.safeParse(input);
		if (!parsed.success) return fail('VALIDATION', parsed.error.issues[0].message);
		return searchDocs(site, parsed.data.query);
	}
	if (name === 'get_doc_page') {
		const parsed = PageInput.safeParse(input);
		if (!parsed.success) return fail('VALIDATION', parsed.error.issues[0].message);
		return getDocPage(site, parsed.data.url ?? parsed.data.path ?? '');
	}
	return undefined;
}

// The page's address if it is on the docs site; a path is read under the site's base path.
export function onSite(site: DocsSite, raw: string): URL | undefined {
	const underBase = raw.startsWith(site.base.pathname);
	let url: URL;
	try {
		url = new URL(raw.startsWith('/') && !underBase ? raw.slice(1) : raw, site.base);
	} catch {
		return undefined;
	}
	if (url.origin !== site.base.origin) return undefined;
	if (url.username || url.password) return undefined; // the docs site asks for no credentials
	if (!`${url.pathname}/`.startsWith(site.base.pathname)) return undefined;
	url.hash = '';
	return url;
}

type Read = { ok: true; text: string; url: string } | { ok: false; status?: number };

async function read(site: DocsSite, url: URL): Promise<Read> {
	if (site.local) {
		const text = site.local(url.pathname);
		return text === undefined ? { ok: false, status: 404 } : { ok: true, text, url: url.href };
	}
	const fetched = await fetchDocument(url.href, { sameOrigin: true });
	if (!fetched.ok) return fetched;
	const html = /html/i.test(fetched.contentType);
	return { ok: true, text: html ? htmlToText(fetched.text) : fetched.text, url: fetched.url };
}

async function getDocPage(site: DocsSite, raw: string): Promise<DocsResult> {
	const url = onSite(site, raw);
	if (!url)
		return fail(
			'VALIDATION',
			`only pages of the docs site ${site.base.href} can be read; use search_docs to find them`
		);
	const page = await read(site, url);
	if (!page.ok && page.status === 404)
		return fail('NOT_FOUND', `no page at ${url.href}; use search_docs to find pages`);
	// Never empty: a site that is down or slow gives the model a pointer to pass on.
	if (!page.ok || !page.text.trim())
		return { ok: true, content: { url: url.href, text: unreachablePointer(url.href) } };
	const cut = page.text.length > MAX_PAGE_CHARS;
	const text = cut
		? `${page.text.slice(0, MAX_PAGE_CHARS)}\n… (cut at ${MAX_PAGE_CHARS} characters; the rest is at ${page.url})`
		: page.text;
	return { ok: true, content: { url: page.url, text } };
}

function htmlToText(html: string): string {
	return convert(html, {
		wordwrap: false,
		selectors: [
			...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
				selector,
				options: { uppercase: false }
			})),
			{ selector: 'img', format: 'skip' },
			{ selector: 'nav', format: 'skip' },
			{ selector: 'footer', format: 'skip' }
		]
	}).trim();
}

export type IndexEntry = { title: string; url: string; context: string; section: string };

// llms.txt (llmstxt.org): markdown list items `- [Title](url): notes`, grouped under `## Section`;
// notes may wrap onto indented lines.
export function parseSiteIndex(text: string, base: URL): IndexEntry[] {
	const entries: IndexEntry[] = [];
	let section = '';
	let last: IndexEntry | undefined;
	for (const line of text.split('\n')) {
		const heading = /^#{2,6}\s+(.*)$/.exec(line);
		const item = /^\s*[-*]\s+\[([^\]]+)\]\(([^)\s]+)\)\s*:?\s*(.*)$/.exec(line);
		if (heading) {
			section = heading[1].trim();
			last = undefined;
		} else if (item) {
			let url: string;
			try {
				url = new URL(item[2], base).href;
			} catch {
				continue;
			}
			last = { title: item[1].trim(), url, context: item[3].trim(), section };
			entries.push(last);
		} else if (last && /^\s+\S/.test(line)) {
			last.context = `${last.context} ${line.trim()}`.trim();
		} else {
			last = undefined;
		}
	}
	return entries;
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];

// Each query word found in the title counts 3, in the url 2, in the notes or section 1.
export function rankEntries(entries: IndexEntry[], query: string): IndexEntry[] {
	const terms = [...new Set(words(query))];
	const score = (e: IndexEntry) => {
		const title = words(e.title);
		const url = words(e.url);
		const rest = words(`${e.context} ${e.section}`);
		const has = (list: string[], t: string) => list.some((w) => w.startsWith(t));
		return terms.reduce(
			(sum, t) => sum + (has(title, t) ? 3 : 0) + (has(url, t) ? 2 : 0) + (has(rest, t) ? 1 : 0),
			0
		);
	};
	return entries
		.map((e, i) => ({ e, i, s: score(e) }))
		.filter((r) => r.s > 0)
		.sort((a, b) => b.s - a.s || a.i - b.i)
		.map((r) => r.e);
}

async function searchDocs(site: DocsSite, query: string): Promise<DocsResult> {
	const indexUrl = new URL('llms.txt', site.base);
	const index = await read(site, indexUrl);
	if (!index.ok || !index.text.trim())
		return {
			ok: true,
			content: { pages: [], note: unreachablePointer(indexUrl.href) }
		};
	const entries = parseSiteIndex(index.text, site.base);
	const pages = rankEntries(entries, query)
		.slice(0, MAX_SEARCH_RESULTS)
		.map(({ title, url, context }) => ({ title, url, context }));
	if (pages.length) return { ok: true, content: { pages } };
	return {
		ok: true,
		content: {
			pages: [],
			note: `No page of the index matched "${query}". Pages: ${entries.map((e) => e.title).join('; ') || 'none'}.`
		}
	};
}
