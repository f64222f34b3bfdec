import { formError, loadError } from '$lib/server/errors.ts';
import { pageLocator, presentPage, readerFacts } from '$lib/server/reader.ts';
import type { Actions, PageServerLoad } from './$types';

// The unsubscribe link of every mail (also its List-Unsubscribe header). GET shows a button, so
// a scanner following the link unsubscribes no one; POST unsubscribes at once, which is what
// mail clients send for RFC 8058 one-click (body `List-Unsubscribe=One-Click`, token in the URL).
export const load: PageServerLoad = async (event) => {
	const { head } = await event.locals.api.statusPage
		.getPublic({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	const { locale } = presentPage(event, { ...head, allow_index: false });
	return { head, locale, token: event.url.searchParams.get('token') ?? '' };
};

export const actions: Actions = {
	default: async ({ locals, params, request, url }) => {
		const form = await request.formData();
		const token = String(form.get('token') ?? url.searchParams.get('token') ?? '');
		try {
			await locals.api.subscriber.unsubscribe({ page: pageLocator(params.slug), token });
		} catch (err) {
			return formError(err);
		}
		return { done: true };
	}
};
