import { gunzipSync, gzipSync } from 'node:zlib';
import type { Handle, RequestEvent } from '@sveltejs/kit';
import { getUpstate, RenderCache } from '@upstate/server';
import { pickLocale } from '../i18n/index.ts';
import { LANG_COOKIE, langCookieOptions, pageLocator, readerFacts } from './reader.ts';

// Views of a status page served from the render cache. Their output depends only on the route
// params, the reader's locale and the gate's decision, which is the key: query strings and
// other headers never reach it, so no reader can force a render.
const CACHED_ROUTES = new Set([
	'/[slug]',
	'/[slug]/embed',
	'/[slug]/history',
	'/[slug]/reports/[id]',
	'/[slug]/feed.rss',
	'/[slug]/feed.atom',
	'/[slug]/api/v2/[...file]',
	'/[slug]/badge.svg',
	'/[slug]/components/[id]/badge.svg'
]);

// Bodies are kept gzipped (status pages are repetitive markup); the rare reader without gzip
// gets them inflated.
type Rendered = { status: number; headers: [string, string][]; gzip: Buffer<ArrayBuffer> };

class Uncacheable extends Error {
	readonly response: Response;
	constructor(response: Response) {
		super('uncacheable');
		this.response = response;
	}
}

let cache: RenderCache<Rendered> | undefined;
const renderCache = () =>
	(cache ??= new RenderCache({ ttlMs: getUpstate().config.statusPageCacheTtlMs, max: 500 }));

async function render(event: RequestEvent, resolve: Parameters<Handle>[0]['resolve']) {
	const response = await resolve(event);
	if (response.status >= 500) throw new Uncacheable(response);
	const raw = Buffer.from(await response.arrayBuffer());
	const zipped = response.headers.get('content-encoding') === 'gzip';
	const headers = [...response.headers].filter(
		([k]) => !['set-cookie', 'content-encoding', 'content-length', 'vary'].includes(k)
	);
	return { status: response.status, headers, gzip: zipped ? raw : gzipSync(raw) };
}

/**
 * The access gate runs first, on every request (its page lookup is memoised by the server);
 * then a hit is served as stored, and a miss is rendered once while concurrent readers wait.
 */
export const cachePublicViews: Handle = async ({ event, resolve }) => {
	const routeId = event.route.id ?? '';
	const slug = event.params.slug;
	if (
		event.request.method !== 'GET' ||
		!slug ||
		!CACHED_ROUTES.has(routeId) ||
		renderCache().ttlMs <= 0
	)
		return resolve(event);
	const gate = await event.locals.api.statusPage
		.getPublicGate({ page: pageLocator(slug), reader: readerFacts(event) })
		.catch(() => null);
	if (!gate) return resolve(event); // no such page: the route answers 404 itself
	const query = event.url.searchParams.get('lang');
	const locale = pickLocale({
		query,
		cookie: event.cookies.get(LANG_COOKIE) ?? null,
		locales: gate.head.locales,
		defaultLocale: gate.head.default_locale
	});
	const key = JSON.stringify([routeId, event.params, locale, gate.access]);
	let hit = true;
	let rendered: Rendered;
	try {
		rendered = await renderCache().get(key, () => {
			hit = false;
			return render(event, resolve);
		});
	} catch (err) {
		if (err instanceof Uncacheable && !hit) return err.response;
		if (err instanceof Uncacheable) return resolve(event);
		throw err;
	}
	const headers = new Headers(rendered.headers);
	headers.set('x-cache', hit ? 'HIT' : 'MISS');
	headers.set('vary', 'Accept-Encoding');
	if (query && query === locale)
		headers.append('set-cookie', event.cookies.serialize(LANG_COOKIE, locale, langCookieOptions));
	const gzip = (event.request.headers.get('accept-encoding') ?? '').includes('gzip');
	if (gzip) headers.set('content-encoding', 'gzip');
	return new Response(gzip ? rendered.gzip : gunzipSync(rendered.gzip), {
		status: rendered.status,
		headers
	});
};
