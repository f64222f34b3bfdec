import { error } from '@sveltejs/kit';
import { messagesFor } from '$lib/i18n/index.ts';
import { loadError } from '$lib/server/errors.ts';
import { pageLocator, presentPage, readerFacts } from '$lib/server/reader.ts';
import type { PageServerLoad } from './$types';

// The compact view for iframes: banner and component states, behind the page's gate.
export const load: PageServerLoad = async (event) => {
	const data = await event.locals.api.statusPage
		.getPublic({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	const { locale } = presentPage(event, data.head);
	if (data.access === 'ip-denied') error(403, messagesFor(locale).gate.ipDenied);
	return { ...data, locale };
};
