import { fail, redirect } from '@sveltejs/kit';
import { getUpstate, toServiceError } from '@upstate/server';
import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import { safeNext } from '$lib/server/sign-in-flow';
import type { Actions, PageServerLoad } from './$types';

// The mailed sign-in link. Opening it only shows a button (mail scanners open links too); the
// person's POST uses the link. A used or expired link offers to mail a new one.
export const load: PageServerLoad = async ({ locals, url }) => {
	const token = url.searchParams.get('token') ?? '';
	return { token, ...(await locals.api.auth.checkMagicLink({ token })) };
};

export const actions: Actions = {
	signIn: async ({ locals, request, url, cookies }) => {
		let sessionId: string;
		try {
			({ sessionId } = await locals.api.auth.verifyMagicLink({
				token: String((await request.formData()).get('token') ?? '')
			}));
		} catch (err) {
			const code = toServiceError(err).code;
			// Used or expired between opening and clicking: the page shows why and what to do.
			if (code === 'UNAUTHORIZED' || code === 'VALIDATION') return fail(400, { refused: true });
			throw err;
		}
		const cookie = getUpstate().lucia.createSessionCookie(sessionId);
		cookies.set(cookie.name, cookie.value, { ...cookie.attributes, path: '/' });
		redirect(303, safeNext(url.searchParams.get('next')) ?? '/monitors');
	},
	resend: async ({ locals, request, url }) => {
		const values = formValues(await request.formData());
		try {
			await locals.api.auth.requestMagicLink({
				email: values.email ?? '',
				next: safeNext(url.searchParams.get('next'))
			});
			return { sent: true };
		} catch (err) {
			return actionError(err, values);
		}
	}
};
