import { error } from '@sveltejs/kit';
import { messagesFor } from '$lib/i18n/index.ts';
import { loadError, reportNotFound } from '$lib/server/errors.ts';
import { pageLocator, presentPage, readerFacts } from '$lib/server/reader.ts';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const reportId = Number(event.params.id);
	if (!Number.isInteger(reportId) || reportId <= 0) reportNotFound(event);
	const data = await event.locals.api.statusPage
		.getPublicReport({ page: pageLocator(event.params.slug), reader: readerFacts(event), reportId })
		.catch((err) => loadError(err, event));
	const { locale } = presentPage(event, data.head);
	if (data.access === 'ip-denied') error(403, messagesFor(locale).gate.ipDenied);
	return { ...data, locale };
};
