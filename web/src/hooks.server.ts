import type { Handle } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { callerForSession, getUpstate, SESSION_COOKIE } from '@upstate/server';

// lucia session → locals.user, and the in-process tRPC caller → locals.api.
const session: Handle = async ({ event, resolve }) => {
	const { api, ctx, cookie } = await callerForSession({
		upstate: getUpstate(),
		sessionId: event.cookies.get(SESSION_COOKIE) ?? null
	});
	if (cookie) event.cookies.set(cookie.name, cookie.value, { ...cookie.attributes, path: '/' });
	event.locals.user = ctx.user;
	event.locals.sessionId = ctx.sessionId;
	event.locals.hasWorkspace = ctx.service !== null;
	event.locals.api = api;
	event.locals.ctx = ctx;
	return resolve(event);
};

export const handle = sequence(session);
