import { error, redirect } from '@sveltejs/kit';
import { OAuthError, toServiceError } from '@upstate/server';
import { formValues } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

// The authorization request as /oauth/authorize checked and sealed it (its client's metadata
// document is fetched there, once), carried through sign-in and the page as a hidden field.
const REQUEST_KEYS = ['request'] as const;

function requestParams(source: Record<string, string> | URLSearchParams): Record<string, string> {
	const get = (k: string) => (source instanceof URLSearchParams ? source.get(k) : source[k]);
	return Object.fromEntries(
		REQUEST_KEYS.flatMap((k) => (get(k) == null ? [] : [[k, String(get(k))]]))
	);
}

// A bad request is shown as a page until its redirect URI is trusted; after that the client
// hears the error at its redirect URI (RFC 6749 4.1.2.1).
function oauthFailure(err: unknown): never {
	const e = toServiceError(err);
	if (e instanceof OAuthError && e.redirectTo) redirect(303, e.redirectTo);
	if (e.code === 'VALIDATION' || e.code === 'UNAUTHORIZED' || e.code === 'NOT_FOUND')
		error(400, e.message);
	throw err;
}

export const load: PageServerLoad = async ({ locals, url, setHeaders }) => {
	// No other site may frame the consent screen and trick a click on Allow.
	setHeaders({ 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" });
	if (!locals.user) {
		// Signing in returns here; `+` is not a safe path character, %20 is the same space.
		const next = `/oauth/consent?${new URLSearchParams(requestParams(url.searchParams)).toString().replaceAll('+', '%20')}`;
		redirect(303, `/sign-in?next=${encodeURIComponent(next)}`);
	}
	const params = requestParams(url.searchParams);
	const [request, workspaces] = await Promise.all([
		locals.api.oauth.consent({ request: params.request ?? '' }).catch(oauthFailure),
		locals.api.workspace.mine()
	]);
	if (workspaces.data.length === 0)
		error(403, 'You are not a member of a workspace: ask an owner to invite you first.');
	return { request, params, workspaces: workspaces.data, email: locals.user.email };
};

export const actions: Actions = {
	approve: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		const { redirectTo } = await locals.api.oauth
			.approve({
				request: v.request ?? '',
				workspaceId: Number(v.workspaceId),
				access: v.access === 'write' ? 'write' : 'read'
			})
			.catch(oauthFailure);
		redirect(303, redirectTo);
	},
	deny: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		const { redirectTo } = await locals.api.oauth
			.deny({ request: v.request ?? '' })
			.catch(oauthFailure);
		redirect(303, redirectTo);
	}
};
