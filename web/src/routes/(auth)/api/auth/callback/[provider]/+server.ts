import { redirect } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import { takeSignInFlow } from '$lib/server/sign-in-flow';
import type { RequestHandler } from './$types';

// Where GitHub, Google or an OpenID Connect issuer sends the browser back (register this URL
// there: README "Sign-in"). Success sets the session; any failure returns to the sign-in page
// with a reason it explains.
export const GET: RequestHandler = async ({ locals, params, url, cookies }) => {
	const flow = takeSignInFlow(cookies);
	const failed = (reason: string) =>
		`/sign-in?error=${reason}&provider=${encodeURIComponent(params.provider)}`;
	if (!flow || flow.provider !== params.provider) redirect(303, failed('expired'));
	const result = await locals.api.auth.finishProviderSignIn({ search: url.search, flow });
	if (!result.ok) redirect(303, failed(result.reason));
	const cookie = getUpstate().lucia.createSessionCookie(result.sessionId);
	cookies.set(cookie.name, cookie.value, { ...cookie.attributes, path: '/' });
	redirect(303, result.next ?? '/monitors');
};
