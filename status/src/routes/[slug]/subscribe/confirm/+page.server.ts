import { formError, loadError } from '$lib/server/errors.ts';
import { pageLocator, presentPage, readerFacts } from '$lib/server/reader.ts';
import type { Actions, PageServerLoad } from './$types';

// The mailed confirmation link. Opening it only shows a button (mail scanners follow links);
// the reader's POST confirms. The token is never logged.
export const load: PageServerLoad = async (event) => {
	const { head } = await event.locals.api.statusPage
		.getPublic({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	const { locale } = presentPage(event, { ...head, allow_index: false });
	return { head, locale, token: event.url.searchParams.get('token') ?? '' };
};

export const actions: Actions = {
	default: async ({ locals, params, request }) => {
		const form = await request.formData();
		try {
			await locals.api.subscriber.confirm({
				page: pageLocator(params.slug),
				token: String(form.get('token') ?? '')
			});
		} catch (err) {
			return formError(err);
		}
		return { done: true };
	}
};
