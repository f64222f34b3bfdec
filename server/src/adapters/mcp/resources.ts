import type { Resource } from '@modelcontextprotocol/server';
import { llmsTxt, mcpReferenceMarkdown } from './reference.ts';
import type { McpTool } from './tools.ts';

export type ResourceUrls = { api: string; web: string | undefined };

// Where the reference and llms.txt live: SERVICE_WEB_BASE_URL when set, else this API server.
export const docsBase = (urls: ResourceUrls): string => urls.web ?? urls.api;

// Public resources of spec 4.1: no workspace data, any credential.
export function publicResources(urls: ResourceUrls): Resource[] {
	const docs = docsBase(urls);
	return [
		{
			name: 'openapi-specification',
			uri: `${urls.api}/openapi.json`,
			mimeType: 'application/json',
			description: 'The full OpenAPI document of the REST API'
		},
		{
			name: 'mcp-server-reference',
			uri: `${docs}/docs/reference/mcp-server`,
			mimeType: 'text/markdown',
			description: 'The MCP server reference'
		},
		{
			name: 'site-index',
			uri: `${docs}/llms.txt`,
			mimeType: 'text/plain',
			description: 'Product context, pricing and an index of site pages'
		}
	];
}

// The documents this server generates itself (api.ts serves them), by path on the API origin:
// read in place when the docs base is this server, so no request goes out.
export function localDocument(
	urls: ResourceUrls & { dashboard: string },
	tools: McpTool[],
	path: string
): string | undefined {
	if (path === '/llms.txt')
		return llmsTxt({ api: urls.api, docs: docsBase(urls), dashboard: urls.dashboard });
	if (path === '/docs/reference/mcp-server') return mcpReferenceMarkdown(tools, urls.api);
	return undefined;
}

export const FETCH_TIMEOUT_MS = 5000;
const MAX_FETCH_BYTES = 2_000_000;
const MAX_REDIRECTS = 3;

export type Fetched =
	{ ok: true; text: string; contentType: string; url: string } | { ok: false; status?: number };

// One GET with the spec's 5 s timeout and at most 2 MB read. `sameOrigin` follows redirects only
// on the first URL's origin (the assistant's docs tools must not be steered to other hosts).
export async function fetchDocument(
	uri: string,
	opts: { sameOrigin?: boolean } = {}
): Promise<Fetched> {
	const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
	let url = new URL(uri);
	try {
		for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
			const res = await fetch(url, { signal, redirect: opts.sameOrigin ? 'manual' : 'follow' });
			const location = res.headers.get('location');
			if (opts.sameOrigin && res.status >= 300 && res.status < 400 && location) {
				await res.body?.cancel();
				const next = new URL(location, url);
				if (next.origin !== url.origin) return { ok: false, status: res.status };
				url = next;
				continue;
			}
			if (!res.ok) {
				await res.body?.cancel();
				return { ok: false, status: res.status };
			}
			return {
				ok: true,
				text: await readCapped(res),
				contentType: res.headers.get('content-type') ?? '',
				url: url.href
			};
		}
	} catch {
		// unreachable, timed out or refused: the caller's pointer
	}
	return { ok: false };
}

async function readCapped(res: Response): Promise<string> {
	if (!res.body) return '';
	const reader = res.body.getReader();
	const decoder = new TextDecoder();
	let text = '';
	let bytes = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		bytes += value.byteLength;
		text += decoder.decode(value, { stream: true });
		if (bytes >= MAX_FETCH_BYTES) {
			await reader.cancel();
			break;
		}
	}
	return text + decoder.decode();
}

export const unreachablePointer = (uri: string) =>
	`This resource could not be fetched just now. Read it at ${uri}`;

// Remote reads time out after 5 s and never come back empty: on failure, a pointer to the URI.
export async function fetchRemote(uri: string): Promise<string> {
	const fetched = await fetchDocument(uri);
	return fetched.ok && fetched.text.trim() ? fetched.text : unreachablePointer(uri);
}
