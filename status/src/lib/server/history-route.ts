import { error, type ServerLoadEvent } from '@sveltejs/kit';
import { messagesFor } from '../i18n/index.ts';
import { loadError } from './errors.ts';
import { pageLocator, presentPage, readerFacts } from './reader.ts';

// The history listings: /<slug>/history (newest months) and /<slug>/history/<yyyy-mm> (from
// that month back). The month is a path segment, not a query, so the render cache can key on it.
export async function loadHistory(event: ServerLoadEvent<{ slug: string; month?: string }>) {
	const month = event.params.month;
	const data = await event.locals.api.statusPage
		.getPublicHistory({ page: pageLocator(event.params.slug), reader: readerFacts(event), month })
		.catch(loadError);
	const { locale } = presentPage(event, data.head);
	if (data.access === 'ip-denied') error(403, messagesFor(locale).gate.ipDenied);
	return { ...data, month: month ?? null, locale };
}
