import type { Resource } from '@modelcontextprotocol/server';

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

// Remote reads time out after 5 s and never come back empty: on failure, a pointer to the URI.
export async function fetchRemote(uri: string): Promise<string> {
	try {
		const res = await fetch(uri, { signal: AbortSignal.timeout(5000) });
		const text = res.ok ? await res.text() : '';
		if (text.trim()) return text;
	} catch {
		// fall through to the pointer
	}
	return `This resource could not be fetched just now. Read it at ${uri}`;
}
