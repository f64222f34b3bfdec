import { error, redirect } from '@sveltejs/kit';
import { getUpstate, toServiceError } from '@upstate/server';
import type { PageServerLoad } from './$types';

// The magic link lands here: a valid token becomes a session cookie.
export const load: PageServerLoad = async ({ locals, url, cookies }) => {
	let sessionId: string;
	try {
		({ sessionId } = await locals.api.auth.verifyMagicLink({
			token: url.searchParams.get('token') ?? ''
		}));
	} catch (err) {
		const e = toServiceError(err);
		if (e.code === 'UNAUTHORIZED' || e.code === 'VALIDATION')
			error(400, 'This sign-in link is invalid or has expired: request a new one.');
		throw err;
	}
	const cookie = getUpstate().lucia.createSessionCookie(sessionId);
	cookies.set(cookie.name, cookie.value, { ...cookie.attributes, path: '/' });
	const next = url.searchParams.get('next');
	redirect(303, next && /^\/(?![/\\])/.test(next) ? next : '/monitors');
};
