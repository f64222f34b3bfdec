import { redirect } from '@sveltejs/kit';
import { formError, loadError } from '$lib/server/errors.ts';
import { setGrantCookie } from '$lib/server/grant-cookie.ts';
import { pageLocator, presentPage, readerFacts } from '$lib/server/reader.ts';
import type { Actions, PageServerLoad } from './$types';

// The mailed one-time link lands here. Opening it only shows a button: mail scanners that
// follow links must not use up the token; the reader's POST claims it.
export const load: PageServerLoad = async (event) => {
	const { head } = await event.locals.api.statusPage
		.getPublic({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	const { locale } = presentPage(event, { ...head, allow_index: false });
	return { head, locale, token: event.url.searchParams.get('token') ?? '' };
};

export const actions: Actions = {
	default: async ({ locals, params, request, cookies, url }) => {
		const form = await request.formData();
		const base = params.slug.startsWith('@') ? '/' : `/${params.slug}`;
		try {
			const { cookie } = await locals.api.statusPage.verifyAccess({
				page: pageLocator(params.slug),
				token: String(form.get('token') ?? '')
			});
			setGrantCookie(cookies, url, cookie);
		} catch (err) {
			return formError(err);
		}
		redirect(303, base);
	}
};
