import { fail } from '@sveltejs/kit';
import {
	ChatBudgetExceeded,
	ChatProviderError,
	ChatRequest,
	getUpstate,
	MAX_MESSAGE_CHARS,
	runChat
} from '@upstate/server';
import type { Actions, PageServerLoad } from './$types';

type Message = { role: 'user' | 'assistant'; content: string };

export const load: PageServerLoad = async () => ({
	configured: getUpstate().config.ai !== null,
	maxChars: MAX_MESSAGE_CHARS
});

// The page's form works without JavaScript: the conversation so far travels in a hidden field,
// the new message and the notify toggle (unticked = false) beside it.
export const actions: Actions = {
	default: async ({ locals, request }) => {
		const data = await request.formData();
		const message = String(data.get('message') ?? '').trim();
		const notify = data.get('notify') === 'on';
		const history = readHistory(String(data.get('history') ?? ''));
		const upstate = getUpstate();
		if (!upstate.config.ai)
			return fail(503, { history, message, notify, error: 'Chat is not configured' });
		const parsed = ChatRequest.safeParse({
			messages: [...history, { role: 'user', content: message }],
			notify
		});
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			return fail(400, {
				history,
				message,
				notify,
				error: `Your message could not be sent: ${issue.message}`
			});
		}
		try {
			const answer = await runChat({ ctx: locals.ctx, upstate, request: parsed.data });
			const messages: Message[] = [
				...parsed.data.messages,
				{ role: 'assistant', content: answer.reply }
			];
			return { history: messages, toolCalls: answer.toolCalls, notify };
		} catch (err) {
			if (err instanceof ChatBudgetExceeded)
				return fail(429, { history, message, notify, error: err.message });
			if (err instanceof ChatProviderError)
				return fail(502, {
					history,
					message,
					notify,
					error: `The assistant's model provider failed: ${err.message}`
				});
			throw err;
		}
	}
};

// The hidden field is the browser's to change: keep only well-formed turns (the chat's own
// schema then bounds their number and size).
function readHistory(raw: string): Message[] {
	let value: unknown;
	try {
		value = JSON.parse(raw || '[]');
	} catch {
		return [];
	}
	if (!Array.isArray(value)) return [];
	return value.filter(
		(m): m is Message =>
			typeof m === 'object' &&
			m !== null &&
			(m.role === 'user' || m.role === 'assistant') &&
			typeof m.content === 'string'
	);
}
