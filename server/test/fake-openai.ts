import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake OpenAI-compatible provider on 127.0.0.1 (the one faked part of the assistant's tests):
// records every request and answers each chat completion from a script, as server-sent chunks
// when the request asks for `stream: true` (as the assistant always does), else as one JSON body.

export type Recorded = { path: string; headers: IncomingHttpHeaders; body: ChatBody };
export type ChatBody = {
	model: string;
	stream?: boolean;
	messages: Array<{ role: string; content?: string | null; tool_call_id?: string }>;
	tools?: Array<{
		type: string;
		function: {
			name: string;
			parameters: { properties?: Record<string, unknown>; required?: string[] };
		};
	}>;
};
// `chunks`: the content in these pieces; `hold`: sent after the first piece, the rest once it resolves.
export type Scripted = {
	status?: number;
	message?: Record<string, unknown>;
	chunks?: string[];
	hold?: Promise<void>;
};

type ToolCallOut = { id: string; type: string; function: { name: string; arguments: string } };

// Answers each POST /v1/chat/completions with the next scripted reply, recording the request.
export async function fakeOpenAi() {
	const requests: Recorded[] = [];
	const script: Scripted[] = [];
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', async () => {
			const body = JSON.parse(raw) as ChatBody;
			requests.push({ path: req.url ?? '', headers: req.headers, body });
			const next = script.shift() ?? { status: 500 };
			const id = `chatcmpl-${requests.length}`;
			if (!next.message || (next.status ?? 200) !== 200) {
				res.writeHead(next.status ?? 500, { 'content-type': 'application/json' });
				return res.end(JSON.stringify({ error: { message: 'no script left' } }));
			}
			const message = { role: 'assistant', content: null, ...next.message } as {
				content: string | null;
				tool_calls?: ToolCallOut[];
			};
			const finish_reason = message.tool_calls ? 'tool_calls' : 'stop';
			if (!body.stream) {
				res.writeHead(200, { 'content-type': 'application/json' });
				return res.end(
					JSON.stringify({
						id,
						object: 'chat.completion',
						created: 0,
						model: body.model,
						choices: [{ index: 0, message, finish_reason }]
					})
				);
			}
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
				res.write(
					`data: ${JSON.stringify({
						id,
						object: 'chat.completion.chunk',
						created: 0,
						model: body.model,
						choices: [{ index: 0, delta, finish_reason: finish }]
					})}\n\n`
				);
			chunk({ role: 'assistant', content: '' });
			const pieces = next.chunks ?? (message.content ? [message.content] : []);
			for (const [i, piece] of pieces.entries()) {
				chunk({ content: piece });
				if (i === 0 && next.hold) await next.hold;
			}
			for (const [index, call] of (message.tool_calls ?? []).entries())
				chunk({ tool_calls: [{ index, ...call }] });
			chunk({}, finish_reason);
			res.end('data: [DONE]\n\n');
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		script,
		close: () => new Promise<void>((r) => server.close(() => r()))
	};
}

export const toolCall = (name: string, args: Record<string, unknown>, id = 'call_1') => ({
	message: {
		tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }]
	}
});
export const say = (content: string) => ({ message: { content } });
// The answer in pieces, as a streaming model sends it.
export const stream = (...chunks: string[]) => ({ message: { content: chunks.join('') }, chunks });
