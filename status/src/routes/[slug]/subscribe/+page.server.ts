import { error } from '@sveltejs/kit';
import { formError, loadError } from '$lib/server/errors.ts';
import { pageLocator, presentPage, readerFacts } from '$lib/server/reader.ts';
import type { Actions, PageServerLoad } from './$types';

// The subscribe form's target (also a page of its own, shown after the POST without JS).
export const load: PageServerLoad = async (event) => {
	const { head } = await event.locals.api.statusPage
		.getPublic({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	if (!head.subscribe) error(404, 'No status page here.');
	const { locale } = presentPage(event, { ...head, allow_index: false });
	return { head, locale };
};

export const actions: Actions = {
	default: async (event) => {
		const form = await event.request.formData();
		try {
			await event.locals.api.subscriber.subscribe({
				page: pageLocator(event.params.slug),
				reader: readerFacts(event),
				email: String(form.get('email') ?? '').trim(),
				componentIds: form.getAll('component').map(Number).filter(Number.isSafeInteger)
			});
		} catch (err) {
			return formError(err);
		}
		return { sent: true };
	}
};
