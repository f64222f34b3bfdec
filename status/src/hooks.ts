import type { Reroute, Transport } from '@sveltejs/kit';
import { ServerOnly } from '$lib/server-only.ts';

export const DOMAIN_LOOKUP = '/~domain';

// Host → slug answers are kept a few seconds: every request passes through here, and without
// this each one would cost a second internal request and a query (a new domain appears within
// DOMAIN_TTL_MS; the verbs check the domain and plan again anyway).
const DOMAIN_TTL_MS = 5000;
const hosts = new Map<string, { slug: string | null; expires: number }>();

async function slugForHost(host: string, fetch: typeof globalThis.fetch) {
	const known = hosts.get(host);
	if (known && known.expires > Date.now()) return known.slug;
	const res = await fetch(`${DOMAIN_LOOKUP}?host=${encodeURIComponent(host)}`);
	if (!res.ok) return null;
	const { slug } = (await res.json()) as { slug: string | null };
	if (hosts.size > 1000) hosts.clear();
	hosts.set(host, { slug, expires: Date.now() + DOMAIN_TTL_MS });
	return slug;
}

// Custom domains: a request whose Host is a page's `custom_domain` is served by the `[slug]`
// routes as `/@host/...` (the verb resolves the page from the domain again and checks the plan).
export const reroute: Reroute = async ({ url, fetch }) => {
	if (url.pathname === DOMAIN_LOOKUP) return;
	const slug = await slugForHost(url.host, fetch);
	if (slug) return `/@${url.host}${url.pathname === '/' ? '' : url.pathname}`;
};

// Status pages never hydrate (`csr = false`): a `ServerOnly` load value is rendered on the server
// and never serialised (see lib/server-only.ts), so there is nothing to decode in a browser.
export const transport: Transport = {
	ServerOnly: {
		encode: (value) => value instanceof ServerOnly && [],
		decode: () => {
			throw new Error('ServerOnly data is rendered on the server and never sent to a browser');
		}
	}
};
