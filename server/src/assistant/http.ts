import type { Upstate } from '../app.ts';
import type { TrpcContext } from '../router/trpc.ts';
import {
	ChatBudgetExceeded,
	ChatProviderError,
	ChatRequest,
	MAX_MESSAGE_CHARS,
	MAX_MESSAGES,
	openChat,
	type OpenChat
} from './chat.ts';

// The dashboard chat endpoint as a web Request → Response, so the SvelteKit route is one line
// and the rules are tested here. Body: { messages: [{ role, content }], notify? }. The answer is
// JSON, or server-sent events when the request accepts text/event-stream.
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
	if (!upstate.config.ai) return text(503, 'Chat is not configured');
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
	let chat;
	try {
		chat = await openChat({ ctx, upstate, request: parsed.data });
	} catch (err) {
		if (err instanceof ChatBudgetExceeded) {
			const res = text(429, err.message);
			res.headers.set('retry-after', String(err.retryAfterSeconds));
			return res;
		}
		throw err;
	}
	if (wantsEvents(request)) return streamChat(chat, request.signal);
	try {
		return Response.json(await chat.run({ signal: request.signal }));
	} catch (err) {
		if (err instanceof ChatProviderError) {
			console.error(`[assistant] provider error: ${err.message}`);
			return text(502, `The assistant's model provider failed: ${err.message}`);
		}
		throw err;
	}
}

const wantsEvents = (request: Request) =>
	(request.headers.get('accept') ?? '').toLowerCase().includes('text/event-stream');

// Server-sent events, in order: `delta` {text} as the answer is written, `tool` {name, ok, error?}
// per tool call once it has run, then `done` {reply, toolCalls} or `error` {message}.
function streamChat(chat: OpenChat, signal: AbortSignal): Response {
	const encoder = new TextEncoder();
	const body = new ReadableStream<Uint8Array>({
		async start(controller) {
			const send = (event: string, data: unknown) => {
				try {
					controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
				} catch {
					// the page went away: the loop stops at its next model call (signal)
				}
			};
			try {
				const reply = await chat.run({
					signal,
					onEvent: ({ type, ...data }) => send(type, data)
				});
				send('done', reply);
			} catch (err) {
				if (signal.aborted) return; // the page went away mid-answer: nobody to tell
				const provider = err instanceof ChatProviderError;
				console.error(
					`[assistant] ${provider ? 'provider error' : 'failed'}: ${err instanceof Error ? err.message : String(err)}`
				);
				send('error', {
					message: provider
						? `The assistant's model provider failed: ${err.message}`
						: 'The assistant failed: try again, and see the server log if it keeps failing'
				});
			}
			try {
				controller.close();
			} catch {
				// already cancelled by the page
			}
		}
	});
	return new Response(body, {
		headers: {
			'content-type': 'text/event-stream; charset=utf-8',
			'cache-control': 'no-cache',
			'x-accel-buffering': 'no'
		}
	});
}
