import type { Upstate } from '../app.ts';
import type { TrpcContext } from '../router/trpc.ts';
import {
	ChatProviderError,
	ChatRequest,
	MAX_MESSAGE_CHARS,
	MAX_MESSAGES,
	runChat
} from './chat.ts';

// The dashboard chat endpoint as a web Request → Response, so the SvelteKit route is one line
// and the rules are tested here. Body: { messages: [{ role, content }], notify? }.
const MAX_BODY_BYTES = (MAX_MESSAGE_CHARS * 4 + 64) * MAX_MESSAGES;

const text = (status: number, body: string) =>
	new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export async function handleChat(args: {
	upstate: Upstate;
	ctx: TrpcContext;
	request: Request;
}): Promise<Response> {
	const { upstate, ctx, request } = args;
	if (!ctx.user || !ctx.service)
		return text(401, 'Sign in and pick a workspace to use the assistant');
	const provider = upstate.config.ai;
	if (!provider) return text(503, 'Chat is not configured');
	const length = Number(request.headers.get('content-length') ?? 0);
	if (length > MAX_BODY_BYTES) return text(413, `The conversation is too long: start a new one`);
	let body: unknown;
	try {
		const raw = await request.text();
		if (raw.length > MAX_BODY_BYTES)
			return text(413, 'The conversation is too long: start a new one');
		body = JSON.parse(raw);
	} catch {
		return text(
			400,
			'The body must be JSON: { "messages": [{ "role": "user", "content": "…" }], "notify": false }'
		);
	}
	const parsed = ChatRequest.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return text(400, `Invalid chat request: ${issue.path.join('.') || 'body'}: ${issue.message}`);
	}
	try {
		return Response.json(await runChat({ ctx, provider, request: parsed.data }));
	} catch (err) {
		if (err instanceof ChatProviderError) {
			console.error(`[assistant] provider error: ${err.message}`);
			return text(502, `The assistant's model provider failed: ${err.message}`);
		}
		throw err;
	}
}
