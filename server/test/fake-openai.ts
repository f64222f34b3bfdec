import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake OpenAI-compatible provider on 127.0.0.1 (the one faked part of the assistant's tests):
// records every request and answers each chat completion from a script.

export type Recorded = { path: string; headers: IncomingHttpHeaders; body: ChatBody };
export type ChatBody = {
	model: string;
	messages: Array<{ role: string; content?: string | null; tool_call_id?: string }>;
	tools?: Array<{
		type: string;
		function: {
			name: string;
			parameters: { properties?: Record<string, unknown>; required?: string[] };
		};
	}>;
};
export type Scripted = { status?: number; message?: Record<string, unknown> };

// Answers each POST /v1/chat/completions with the next scripted reply, recording the request.
export async function fakeOpenAi() {
	const requests: Recorded[] = [];
	const script: Scripted[] = [];
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			requests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) });
			const next = script.shift() ?? { status: 500 };
			res.writeHead(next.status ?? 200, { 'content-type': 'application/json' });
			if (!next.message) return res.end(JSON.stringify({ error: { message: 'no script left' } }));
			res.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: 0,
					model: 'test-model',
					choices: [
						{
							index: 0,
							message: { role: 'assistant', content: null, ...next.message },
							finish_reason: next.message.tool_calls ? 'tool_calls' : 'stop'
						}
					]
				})
			);
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
