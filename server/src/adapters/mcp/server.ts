import {
	ProtocolError,
	ProtocolErrorCode,
	ResourceNotFoundError,
	Server,
	type CallToolResult
} from '@modelcontextprotocol/server';
import type { TrpcContext } from '../../router/trpc.ts';
import { toServiceError } from '../../router/errors.ts';
import { callProcedure } from '../procedures.ts';
import { createOpenApiDocument } from '../rest/openapi.ts';
import { mapError } from './errors.ts';
import {
	docsBase,
	fetchRemote,
	localDocument,
	publicResources,
	type ResourceUrls
} from './resources.ts';
import { visibleTools, type McpTool } from './tools.ts';

// One MCP server per request, for either protocol revision: tools generated from procedure meta,
// the public resources of spec 4.1.
export function buildServer(
	ctx: TrpcContext,
	tools: McpTool[],
	urls: ResourceUrls & { dashboard: string }
): Server {
	const server = new Server(
		{ name: 'upstate', version: '1.0.0' },
		{ capabilities: { tools: {}, resources: {} } }
	);
	const visible = visibleTools(tools, ctx.service);
	server.setRequestHandler('tools/list', async () => ({ tools: visible.map((t) => t.tool) }));
	server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
		const entry = tools.find((t) => t.tool.name === request.params.name);
		if (!entry)
			throw new ProtocolError(
				ProtocolErrorCode.InvalidParams,
				`unknown tool ${request.params.name}`
			);
		const parsed = entry.procedure.input?.safeParse(request.params.arguments ?? {});
		// Cross-field rules (zod `custom` issues, e.g. `to` before `from`) are VALIDATION results
		// the model can correct; input that breaks the advertised schema is malformed (spec 7.1).
		if (parsed && !parsed.success && parsed.error.issues.every((i) => i.code === 'custom'))
			return mapError(parsed.error);
		if (parsed && !parsed.success) {
			throw new ProtocolError(
				ProtocolErrorCode.InvalidParams,
				`invalid arguments for ${entry.tool.name}: ${toServiceError(parsed.error).message}`
			);
		}
		try {
			const output = (await callProcedure(ctx, entry.procedure.path, parsed?.data)) as Record<
				string,
				unknown
			>;
			const omit = entry.procedure.meta.mcp?.omit ?? [];
			const result = Object.fromEntries(Object.entries(output).filter(([k]) => !omit.includes(k)));
			return {
				content: [{ type: 'text', text: JSON.stringify(result) }],
				structuredContent: result
			};
		} catch (err) {
			return mapError(err);
		}
	});
	const resources = publicResources(urls);
	server.setRequestHandler('resources/list', async () => ({ resources }));
	// The resources capability answers every resources method, templates included (none here).
	server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
	server.setRequestHandler('resources/read', async (request) => {
		const resource = resources.find((r) => r.uri === request.params.uri);
		if (!resource) throw new ResourceNotFoundError(request.params.uri);
		// Documents this server serves itself are generated in place; others are fetched.
		const local = docsBase(urls) === urls.api;
		const text =
			resource.name === 'openapi-specification'
				? JSON.stringify(createOpenApiDocument({ serverUrl: urls.api }))
				: local
					? (localDocument(urls, tools, new URL(resource.uri).pathname) ?? '')
					: await fetchRemote(resource.uri);
		return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
	});
	return server;
}
