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

/**
 * The reader's cookies from the raw `Cookie` header (first of a repeated name wins, values
 * URI-decoded when they can be). Every view and the cache's fast path in front of SvelteKit read
 * cookies through this one parser, so the key a cached body is stored under and the render
 * behind it always agree on the reader's passes and language.
 */
export function parseCookies(header: string | null): Map<string, string> {
	const cookies = new Map<string, string>();
	for (const part of (header ?? '').split(';')) {
		const eq = part.indexOf('=');
		if (eq < 0) continue;
		const name = part.slice(0, eq).trim();
		if (!name || cookies.has(name)) continue;
		let value = part.slice(eq + 1).trim();
		if (value.length > 1 && value.startsWith('"') && value.endsWith('"'))
			value = value.slice(1, -1);
		try {
			value = value.includes('%') ? decodeURIComponent(value) : value;
		} catch {
			// kept as sent
		}
		cookies.set(name, value);
	}
	return cookies;
}

export type RawReader = {
	clientAddress: string;
	forwardedFor: string | null;
	cookie: string | null;
};

// The facts the access gate decides on; trusting any of them is the verb's job, not ours.
export function readerFactsFrom(raw: RawReader) {
	const grants: string[] = [];
	for (const [name, value] of parseCookies(raw.cookie))
		if (name.startsWith(GRANT_PREFIX) && grants.length < 20) grants.push(value);
	return { socketAddress: raw.clientAddress, forwardedFor: raw.forwardedFor, grants };
}

export const rawReader = (event: RequestEvent): RawReader => ({
	clientAddress: event.getClientAddress(),
	forwardedFor: event.request.headers.get('x-forwarded-for'),
	cookie: event.request.headers.get('cookie')
});

export const readerFacts = (event: RequestEvent) => readerFactsFrom(rawReader(event));

export const langCookie = (cookie: string | null): string | null =>
	parseCookies(cookie).get(LANG_COOKIE) ?? null;

export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * Headers every view of a page sends, HTML or not (feeds, JSON, badges): a page that must not
 * be indexed says so, and a page behind a gate is never kept by a shared cache or the browser.
 */
export function viewHeaders(head: { allow_index: boolean; public: boolean }) {
	const headers: Record<string, string> = {};
	if (!head.allow_index) headers['x-robots-tag'] = 'noindex';
	if (!head.public) headers['cache-control'] = PRIVATE_CACHE_CONTROL;
	return headers;
}

// Other origins may read a public page's feeds, badges and JSON; a gated page's views stay
// with the reader who passed (an IP range, say), never with a site that reader visits.
export const corsHeaders = (head: { public: boolean }): Record<string, string> =>
	head.public ? { 'access-control-allow-origin': '*' } : {};

/**
 * Per-view presentation facts shared by every page of a status page: the reader's locale
 * (remembering a `?lang=` choice in a cookie) and the no-index header. The render cache keys
 * on (page, locale, access decision): everything else here is derived from those.
 */
export function presentPage(
	event: RequestEvent,
	head: { locales: string[]; default_locale: string; allow_index: boolean; public: boolean }
): { locale: string } {
	const query = event.url.searchParams.get('lang');
	const locale = pickLocale({
		query,
		cookie: langCookie(event.request.headers.get('cookie')),
		locales: head.locales,
		defaultLocale: head.default_locale
	});
	if (query && query === locale) {
		event.cookies.set(LANG_COOKIE, locale, langCookieOptions);
	}
	event.setHeaders(viewHeaders(head));
	event.locals.lang = locale;
	return { locale };
}

/**
 * Where to go after a gate form: a path on the request's own origin, never another. Control
 * characters and backslashes are refused outright: browsers drop or rewrite them (`/\t/evil`
 * is `//evil`), so what we checked would not be what they follow.
 */
export function safeNext(value: FormDataEntryValue | null, fallback: string, origin: URL): string {
	const next = typeof value === 'string' ? value : '';
	// eslint-disable-next-line no-control-regex -- control characters are what we look for
	if (!next.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
	const resolved = URL.canParse(next, origin) ? new URL(next, origin) : null;
	if (resolved?.origin !== origin.origin) return fallback;
	// `/a/..//evil` resolves to the path `//evil`, which a browser reads as another host.
	const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
	return path.startsWith('//') ? fallback : path;
}
