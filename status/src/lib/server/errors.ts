import { error, fail, type RequestEvent } from '@sveltejs/kit';
import { NotFoundError, toServiceError } from '@upstate/server';
import { MESSAGES, messagesFor } from '../i18n/index.ts';
import { langCookie } from './reader.ts';

// Forms return fail(), pages throw error() (STYLE 24). Gate forms echo no values back: the
// only fields are a password or an e-mail address.
export function formError(err: unknown) {
	const e = toServiceError(err);
	switch (e.code) {
		case 'VALIDATION':
		case 'UNAUTHORIZED':
			return fail(e.code === 'VALIDATION' ? 400 : 401, { message: e.message });
		case 'LIMIT_EXCEEDED':
			return fail(429, { message: e.message });
		case 'NOT_FOUND':
			return error(404, 'No status page here.');
		default:
			throw err;
	}
}

// With the request, a missing report on a page that exists says so (not "no page").
export function loadError(err: unknown, event?: RequestEvent): never {
	const e = toServiceError(err);
	if (e.code !== 'NOT_FOUND') throw err;
	if (event && e instanceof NotFoundError && e.entity === 'status report') reportNotFound(event);
	error(404, 'No status page here.');
}

// In the language the reader chose (?lang= or the remembered cookie) if we ship it: the page's
// own languages are not known without reading it.
export function reportNotFound(event: RequestEvent): never {
	const url = event.url;
	const asked = url.searchParams.get('lang') ?? langCookie(event.request.headers.get('cookie'));
	const locale = asked && Object.hasOwn(MESSAGES, asked) ? asked : 'en';
	event.locals.lang = locale;
	error(404, messagesFor(locale).noSuchReport);
}
