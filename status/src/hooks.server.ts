import type { Handle } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { callerForSession, getUpstate } from '@upstate/server';

// Readers are anonymous: the caller only reaches public procedures.
const api: Handle = async ({ event, resolve }) => {
	event.locals.api = (await callerForSession({ upstate: getUpstate(), sessionId: null })).api;
	return resolve(event);
};

export const handle = sequence(api);
