import type { Reroute } from '@sveltejs/kit';

export const DOMAIN_LOOKUP = '/~domain';

// Custom domains: a request whose Host is a page's `custom_domain` is served by the `[slug]`
// routes as `/@host/...` (the verb resolves the page from the domain again and checks the plan).
export const reroute: Reroute = async ({ url, fetch }) => {
	if (url.pathname === DOMAIN_LOOKUP) return;
	const res = await fetch(`${DOMAIN_LOOKUP}?host=${encodeURIComponent(url.host)}`);
	if (!res.ok) return;
	const { slug } = (await res.json()) as { slug: string | null };
	if (slug) return `/@${url.host}${url.pathname === '/' ? '' : url.pathname}`;
};
