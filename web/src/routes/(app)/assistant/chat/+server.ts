import { getUpstate, handleChat } from '@upstate/server';
import type { RequestHandler } from './$types';

// The dashboard chat as JSON: { messages: [{ role, content }], notify? } → { reply, toolCalls }.
// The rules (session, 503 without a provider, limits, 502) live in the server's handleChat.
export const POST: RequestHandler = ({ locals, request }) =>
	handleChat({ upstate: getUpstate(), ctx: locals.ctx, request });
