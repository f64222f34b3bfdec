import type { RequestEvent } from '@sveltejs/kit';
import { pickLocale } from '../i18n/index.ts';

export const LANG_COOKIE = 'upstate_lang';
export const langCookieOptions = {
	path: '/',
	httpOnly: true,
	sameSite: 'lax',
	maxAge: 365 * 24 * 3600
} as const;
const GRANT_PREFIX = 'upstate_page_';

// `[slug]` is a slug, or `@host` when the reroute hook mapped a custom domain here
// (slugs never contain `@`).
export function pageLocator(param: string): { slug: string } | { domain: string } {
	return param.startsWith('@') ? { domain: param.slice(1) } : { slug: param };
}

// The facts the access gate decides on; trusting any of them is the verb's job, not ours.
export function readerFacts(event: RequestEvent) {
	return {
		socketAddress: event.getClientAddress(),
		forwardedFor: event.request.headers.get('x-forwarded-for'),
		grants: event.cookies
			.getAll()
			.filter((c) => c.name.startsWith(GRANT_PREFIX))
			.map((c) => c.value)
			.slice(0, 20)
	};
}

/**
 * Per-view presentation facts shared by every page of a status page: the reader's locale
 * (remembering a `?lang=` choice in a cookie) and the no-index header. The render cache keys
 * on (page, locale, access decision): everything else here is derived from those.
 */
export function presentPage(
	event: RequestEvent,
	head: { locales: string[]; default_locale: string; allow_index: boolean }
): { locale: string } {
	const query = event.url.searchParams.get('lang');
	const locale = pickLocale({
		query,
		cookie: event.cookies.get(LANG_COOKIE) ?? null,
		locales: head.locales,
		defaultLocale: head.default_locale
	});
	if (query && query === locale) {
		event.cookies.set(LANG_COOKIE, locale, langCookieOptions);
	}
	if (!head.allow_index) event.setHeaders({ 'x-robots-tag': 'noindex' });
	event.locals.lang = locale;
	return { locale };
}

// Where to go after a gate form: a same-site path only, never another origin.
export function safeNext(value: FormDataEntryValue | null, fallback: string): string {
	const next = typeof value === 'string' ? value : '';
	return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')
		? next
		: fallback;
}
