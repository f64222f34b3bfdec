import { gzipSync } from 'node:zlib';
import { error, type Handle } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import { sequence } from '@sveltejs/kit/hooks';
import { htmlLang } from '$lib/i18n/index.ts';
import { cachePublicViews, publicApi } from '$lib/server/render-cache.ts';

// svelte.config.js turns kit's origin check off so RFC 8058 one-click unsubscribe POSTs (sent
// with no Origin) arrive; every other POST keeps one. On an ip-restricted page the reader's
// address is ambient authority: a foreign site must not subscribe its own mailbox through it.
// The Origin's host must be the request's: not its scheme, which a TLS-terminating proxy in
// front changes. Browsers send Origin with every POST; a client without one is not a browser
// another site can drive.
const sameOriginPosts: Handle = async ({ event, resolve }) => {
	const { request, route, url } = event;
	const isRead = ['GET', 'HEAD', 'OPTIONS'].includes(request.method);
	const origin = request.headers.get('origin');
	const foreign = origin !== null && URL.parse(origin)?.host !== url.host;
	if (!isRead && route.id !== '/[slug]/unsubscribe' && foreign)
		return new Response('Cross-site form submissions are forbidden', { status: 403 });
	return resolve(event);
};

// Readers are anonymous: the caller only reaches public procedures.
const api: Handle = async ({ event, resolve }) => {
	event.locals.api = await publicApi();
	return resolve(event);
};

// `[slug]` is `@host` only when the reroute hook mapped the request's own Host there: asked for
// directly (`/@victim.test` on the main host) it is not found, so a page has one address per host.
const customDomains: Handle = async ({ event, resolve }) => {
	const slug = event.params.slug;
	if (slug?.startsWith('@') && slug.slice(1) !== event.url.host) error(404, 'No status page here.');
	return resolve(event);
};

// <html lang> follows the locale a page's load picked (English elsewhere).
const lang: Handle = async ({ event, resolve }) => {
	event.locals.lang = 'en';
	return resolve(event, {
		transformPageChunk: ({ html }) => html.replace('%upstate.lang%', htmlLang(event.locals.lang))
	});
};

// Status pages are read on phones on bad networks during outages: HTML goes out gzipped
// (a 20-component page with 90-day bars is mostly repetitive markup). A render kept by the
// cache is compressed once, so hard (level 9: 4 KB for that page); with the cache off every
// request pays, so fast (level 1: 10 KB, a third of the CPU).
const compress: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const accepts = event.request.headers.get('accept-encoding') ?? '';
	const isHtml = response.headers.get('content-type')?.startsWith('text/html');
	if (
		!response.body ||
		!isHtml ||
		!accepts.includes('gzip') ||
		response.headers.has('content-encoding')
	)
		return response;
	const headers = new Headers(response.headers);
	headers.set('content-encoding', 'gzip');
	headers.delete('content-length');
	headers.append('vary', 'Accept-Encoding');
	const level = getUpstate().config.statusPageCacheTtlMs > 0 ? 9 : 1;
	const body = gzipSync(Buffer.from(await response.arrayBuffer()), { level });
	return new Response(body, { status: response.status, statusText: response.statusText, headers });
};

// Only the compact view may be framed (for embedding); every other view refuses frames.
const frames: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	if (event.route.id !== '/[slug]/embed' && !response.headers.has('x-frame-options')) {
		response.headers.set('x-frame-options', 'DENY');
		response.headers.set('content-security-policy', "frame-ancestors 'none'");
	}
	return response;
};

export const handle = sequence(
	sameOriginPosts,
	customDomains,
	api,
	cachePublicViews,
	compress,
	frames,
	lang
);
