import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Handle, RequestEvent } from '@sveltejs/kit';
import { env } from '$env/dynamic/private';
import { callerForSession, getUpstate, RenderCache, setStatusFastPath } from '@upstate/server';
import { pickLocale } from '../i18n/index.ts';
import {
	LANG_COOKIE,
	langCookie,
	langCookieOptions,
	pageLocator,
	PRIVATE_CACHE_CONTROL,
	rawReader,
	readerFactsFrom,
	type RawReader
} from './reader.ts';

// Views of a status page served from the render cache. Their output depends only on the route
// params, the reader's locale and the gate's decision, which is the key: query strings and
// other headers never reach it, so no reader can force a render.
const CACHED_ROUTES = new Set([
	'/[slug]',
	'/[slug]/embed',
	'/[slug]/history',
	'/[slug]/history/[month=month]',
	'/[slug]/reports/[id]',
	'/[slug]/feed.rss',
	'/[slug]/feed.atom',
	'/[slug]/api/v2/[...file]',
	'/[slug]/badge.svg',
	'/[slug]/components/[id]/badge.svg'
]);

// Bodies are kept gzipped (status pages are repetitive markup); the rare reader without gzip
// gets them inflated. `head` is the stored headers as Node writes them, for the fast path.
type Rendered = {
	status: number;
	headers: [string, string][];
	gzip: Buffer<ArrayBuffer>;
	head: string[];
};
type Route = { routeId: string; params: Record<string, string> };

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
// Host and path → the route SvelteKit chose for them (custom domains reroute by Host), learnt
// from the requests it answered; expires with its page's changes and TTL like the bodies.
let routes: RenderCache<Route> | undefined;
const routeIndex = () =>
	(routes ??= new RenderCache({ ttlMs: getUpstate().config.statusPageCacheTtlMs, max: 2000 }));

// The anonymous caller every view uses (status readers never have a session).
export const publicApi = async () =>
	(await callerForSession({ upstate: getUpstate(), sessionId: null })).api;

/**
 * The one decision both paths make before a body is served: the access gate (its page lookup
 * is memoised by the server), then the reader's locale; the key is route, params, locale and
 * the gate's decision. `null`: no such page (the route answers 404 itself).
 */
async function decide(route: Route, reader: RawReader, lang: string | null) {
	const api = await publicApi();
	const gate = await api.statusPage
		.getPublicGate({ page: pageLocator(route.params.slug), reader: readerFactsFrom(reader) })
		.catch(() => null);
	if (!gate) return null;
	const locale = pickLocale({
		query: lang,
		cookie: langCookie(reader.cookie),
		locales: gate.head.locales,
		defaultLocale: gate.head.default_locale
	});
	return {
		key: JSON.stringify([route.routeId, route.params, locale, gate.access]),
		pageId: gate.head.id, // only this page's changes drop the entry
		locale,
		rememberLocale: lang !== null && lang === locale,
		isPublic: gate.head.public
	};
}

// A stored body's headers as this reader gets them: a gated page's views are private and
// readable by no other origin, whatever was stored (the page's access type is read each time).
function headersFor(stored: [string, string][], isPublic: boolean): [string, string][] {
	if (isPublic) return stored;
	const kept = stored.filter(([k]) => k !== 'cache-control' && k !== 'access-control-allow-origin');
	return [...kept, ['cache-control', PRIVATE_CACHE_CONTROL]];
}

async function render(event: RequestEvent, resolve: Parameters<Handle>[0]['resolve']) {
	const response = await resolve(event);
	if (response.status >= 500) throw new Uncacheable(response);
	const raw = Buffer.from(await response.arrayBuffer());
	const zipped = response.headers.get('content-encoding') === 'gzip';
	const headers = [...response.headers].filter(
		([k]) => !['set-cookie', 'content-encoding', 'content-length', 'vary'].includes(k)
	);
	const gzip = zipped ? raw : gzipSync(raw);
	return { status: response.status, headers, gzip, head: headers.flat() };
}

// Remembers a `?lang=` choice; `Secure` except on plain-http localhost (SvelteKit's default).
const langCookieHeader = (locale: string, url: URL) =>
	`${LANG_COOKIE}=${encodeURIComponent(locale)}; Max-Age=${langCookieOptions.maxAge}; Path=${langCookieOptions.path}; HttpOnly${url.hostname === 'localhost' && url.protocol === 'http:' ? '' : '; Secure'}; SameSite=Lax`;

/**
 * The access gate runs first, on every request; then a hit is served as stored, and a miss is
 * rendered once while concurrent readers wait.
 */
export const cachePublicViews: Handle = async ({ event, resolve }) => {
	const route = { routeId: event.route.id ?? '', params: event.params as Record<string, string> };
	if (
		event.request.method !== 'GET' ||
		event.isDataRequest ||
		!route.params.slug ||
		!CACHED_ROUTES.has(route.routeId) ||
		renderCache().ttlMs <= 0
	)
		return resolve(event);
	const lang = event.url.searchParams.get('lang');
	const decision = await decide(route, rawReader(event), lang);
	if (!decision) return resolve(event);
	let hit = true;
	let rendered: Rendered;
	try {
		rendered = await renderCache().get(
			decision.key,
			() => {
				hit = false;
				return render(event, resolve);
			},
			decision.pageId
		);
	} catch (err) {
		if (err instanceof Uncacheable && !hit) return err.response;
		if (err instanceof Uncacheable) return resolve(event);
		throw err;
	}
	const known = `${event.url.host} ${event.url.pathname}`;
	void routeIndex().get(known, async () => route, decision.pageId);
	const headers = new Headers(headersFor(rendered.headers, decision.isPublic));
	headers.set('x-cache', hit ? 'HIT' : 'MISS');
	headers.set('vary', 'Accept-Encoding');
	if (decision.rememberLocale)
		headers.append('set-cookie', langCookieHeader(decision.locale, event.url));
	const gzip = (event.request.headers.get('accept-encoding') ?? '').includes('gzip');
	if (gzip) headers.set('content-encoding', 'gzip');
	return new Response(gzip ? rendered.gzip : gunzipSync(rendered.gzip), {
		status: rendered.status,
		headers
	});
};

// adapter-node's client address when no address header is configured (see below).
const socketAddress = (req: IncomingMessage) => req.socket.remoteAddress ?? '';

/**
 * In front of SvelteKit (main.ts): a GET for a path SvelteKit already routed to a cached view
 * is decided exactly as above and, on a stored body, answered here. Everything else (a miss,
 * HEAD, conditional requests, readers without gzip) goes on to SvelteKit.
 */
async function serveHit(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
	if (req.method !== 'GET' || !req.url?.startsWith('/') || req.headers['if-none-match'])
		return false;
	if (!(req.headers['accept-encoding'] ?? '').includes('gzip')) return false;
	const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
	const url = new URL(req.url, `${proto}://${req.headers.host ?? 'localhost'}`);
	if (url.pathname.endsWith('/__data.json')) return false;
	const route = await routeIndex().peek(`${url.host} ${url.pathname}`);
	if (!route) return false;
	const cookie = req.headers.cookie ?? null;
	const forwarded = req.headers['x-forwarded-for'];
	const reader = {
		clientAddress: socketAddress(req),
		forwardedFor: Array.isArray(forwarded) ? forwarded.join(', ') : (forwarded ?? null),
		cookie
	};
	const decision = await decide(route, reader, url.searchParams.get('lang'));
	const stored = decision && renderCache().peek(decision.key);
	const rendered = await stored?.catch(() => null);
	if (!decision || !rendered) return false;
	const head = [
		...(decision.isPublic ? rendered.head : headersFor(rendered.headers, false).flat()),
		'x-cache',
		'HIT',
		'vary',
		'Accept-Encoding',
		'content-encoding',
		'gzip',
		'content-length',
		String(rendered.gzip.length)
	];
	if (decision.rememberLocale) head.push('set-cookie', langCookieHeader(decision.locale, url));
	res.writeHead(rendered.status, head);
	res.end(rendered.gzip);
	return true;
}

// The fast path reads the socket address and Host as adapter-node does by default; with its
// address, host or port header options set, every request goes through SvelteKit.
const adapterReadsHeaders = ['ADDRESS_HEADER', 'HOST_HEADER', 'PORT_HEADER'].some(
	(name) => env[`UPSTATE_STATUS_PAGE_${name}`]
);
if (!adapterReadsHeaders) setStatusFastPath(serveHit);
