import type { McpTool } from './tools.ts';

// The documents the public MCP resources point at (spec 4.1), served by the API server itself at
// /docs/reference/mcp-server and /llms.txt, generated from the tool registry so they cannot drift.

const ERRORS = `## Errors

| Code | Delivered as |
|---|---|
| \`NOT_FOUND\`, \`VALIDATION\`, \`CONFLICT\`, \`LIMIT_EXCEEDED\`, \`PRECONDITION_FAILED\` | tool result with \`isError: true\` and the text \`CODE: message\`; correct the input and retry |
| \`UNAUTHORIZED\` | JSON-RPC error -32001 (HTTP 401 when the credential is missing or revoked) |
| \`FORBIDDEN\` | JSON-RPC error -32003 (a read-only credential calling a mutation) |
| \`INTERNAL\` | JSON-RPC error -32603 |
| malformed input (arguments that break the tool's input schema) | JSON-RPC error -32602 naming the field |
| rate limit exceeded | HTTP 429 with \`Retry-After\`, no JSON-RPC body |
`;

export function mcpReferenceMarkdown(tools: McpTool[], apiUrl: string): string {
	const sections = tools.map(({ tool }) => {
		const a = tool.annotations ?? {};
		return [
			`### \`${tool.name}\``,
			'',
			tool.description ?? '',
			'',
			`Annotations: readOnlyHint \`${a.readOnlyHint}\`, destructiveHint \`${a.destructiveHint}\`, idempotentHint \`${a.idempotentHint}\`.`,
			'',
			'Input schema:',
			'',
			'```json',
			JSON.stringify(tool.inputSchema, null, 2),
			'```',
			''
		].join('\n');
	});
	return `# Upstate MCP server reference

Endpoint: \`${apiUrl}/mcp\` (stateless Streamable HTTP; protocol revisions 2025-11-25 and
2026-07-28). Credentials: \`x-service-key: <API_KEY>\` or an OAuth access token
(\`Authorization: Bearer ...\`). Read-only credentials see only the \`list_*\` and \`get_*\` tools.
Every tool call counts against the credential's rate limit, shared with the REST API.

## Tools (${tools.length})

${sections.join('\n')}
${ERRORS}
## Resources

| Name | URI |
|---|---|
| \`openapi-specification\` | ${apiUrl}/openapi.json |
| \`mcp-server-reference\` | this document |
| \`site-index\` | llms.txt |
`;
}

export function llmsTxt(urls: { api: string; docs: string; dashboard: string }): string {
	return `# Upstate

> Self-hostable uptime monitoring and status pages: HTTP, TCP, DNS, ICMP and gRPC checks from
> private locations, incidents and alerts to notification channels, public status pages with
> reports, maintenance windows and subscribers, an audit log, a REST API and an MCP server.

Upstate is open source (AGPL-3.0) and runs on your own machines: there is no price to pay. Plans
are workspace limits set by the operator: check frequencies are 10m, 30m and 1h on Hobby; Starter
adds 1m and 5m; Pro and Scale add 30s.

## Docs

- [MCP server reference](${urls.docs}/docs/reference/mcp-server): the tools, their inputs,
  annotations and errors
- [OpenAPI document](${urls.api}/openapi.json): the REST API v1 (header \`x-service-key\`)

## Pages

- [Dashboard](${urls.dashboard}): monitors, status pages, notifications, settings and API keys
- [MCP endpoint](${urls.api}/mcp): connect an assistant with an API key or OAuth
`;
}
