import { EventSourceParserStream } from 'eventsource-parser/stream';

// The assistant's answer as it is written: POST /assistant/chat asking for server-sent events
// (server/src/assistant/http.ts). A refusal before the stream (400, 429, 503…) is one `error`.
export type ToolCall = { name: string; ok: boolean; error?: string };
export type ChatStreamEvent =
	| { event: 'delta'; text: string }
	| ({ event: 'tool' } & ToolCall)
	| { event: 'done'; reply: string; toolCalls: ToolCall[] }
	| { event: 'error'; message: string };

export async function* streamChat(body: {
	messages: { role: 'user' | 'assistant'; content: string }[];
	notify: boolean;
}): AsyncGenerator<ChatStreamEvent> {
	const res = await fetch('/assistant/chat', {
		method: 'POST',
		headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
		body: JSON.stringify(body)
	});
	if (!res.ok || !res.body) {
		yield { event: 'error', message: (await res.text()) || `The assistant answered ${res.status}` };
		return;
	}
	const reader = res.body
		.pipeThrough(new TextDecoderStream())
		.pipeThrough(new EventSourceParserStream())
		.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return;
		yield { event: value.event, ...JSON.parse(value.data) } as ChatStreamEvent;
	}
}
