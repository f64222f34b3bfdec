import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake Slack Web API on 127.0.0.1 (the one faked part of the agent's tests besides the model):
// oauth.v2.access, users.info, conversations.replies, chat.postMessage, chat.postEphemeral,
// chat.update. Records every
// request with its parsed body (JSON or form).

export type SlackCall = {
	method: string;
	headers: IncomingHttpHeaders;
	body: Record<string, unknown>;
};
export type Install = { team: { id: string; name: string }; botUserId: string; token: string };

export async function fakeSlack() {
	const calls: SlackCall[] = [];
	const codes = new Map<string, Install>(); // oauth code → what oauth.v2.access answers
	const emails = new Map<string, string>(); // Slack user id → profile e-mail
	const names = new Map<string, string>(); // Slack user id → profile display_name
	// channel:thread_ts → the thread's messages, oldest first; a string is the error answered.
	const threads = new Map<string, Array<Record<string, unknown>> | string>();
	let ts = 1000;
	const waiting: Array<{ method: string; resolve: (c: SlackCall) => void }> = [];
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0];
			const json = (req.headers['content-type'] ?? '').startsWith('application/json');
			const body = json
				? (JSON.parse(raw) as Record<string, unknown>)
				: Object.fromEntries(new URLSearchParams(raw));
			const call = { method, headers: req.headers, body };
			calls.push(call);
			for (const w of waiting.filter((w) => w.method === method)) {
				waiting.splice(waiting.indexOf(w), 1);
				w.resolve(call);
			}
			const send = (answer: Record<string, unknown>) => {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(answer));
			};
			switch (method) {
				case 'oauth.v2.access': {
					const install = codes.get(String(body.code));
					if (!install) return send({ ok: false, error: 'invalid_code' });
					return send({
						ok: true,
						access_token: install.token,
						token_type: 'bot',
						bot_user_id: install.botUserId,
						team: install.team
					});
				}
				case 'users.info': {
					const email = emails.get(String(body.user));
					const name = names.get(String(body.user));
					return send({
						ok: true,
						user: {
							id: body.user,
							is_bot: false,
							profile: { ...(email ? { email } : {}), ...(name ? { display_name: name } : {}) }
						}
					});
				}
				case 'conversations.replies': {
					const thread = threads.get(`${body.channel}:${body.ts}`);
					if (typeof thread === 'string') return send({ ok: false, error: thread });
					if (!thread) return send({ ok: false, error: 'thread_not_found' });
					const latest = Number(body.latest ?? Infinity);
					return send({
						ok: true,
						messages: thread.filter((m) => Number(m.ts) < latest).slice(0, Number(body.limit))
					});
				}
				case 'chat.postMessage':
					return send({ ok: true, channel: body.channel, ts: String(++ts) });
				case 'chat.postEphemeral':
				case 'chat.update':
					return send({ ok: true });
				default:
					return send({ ok: false, error: 'unknown_method' });
			}
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/api`,
		calls,
		codes,
		emails,
		names,
		threads,
		// The next call of this method (for a process whose background work a test cannot await).
		next: (method: string) =>
			new Promise<SlackCall>((resolve) => waiting.push({ method, resolve })),
		close: () => new Promise<void>((r) => server.close(() => r()))
	};
}
