import type { OpenedPage } from './open-page.ts';

// The page's absolute address for feeds and JSON: its custom domain (with the scheme of
// STATUS_PAGE_URL) when read there, else STATUS_PAGE_URL/<slug>. Never the request's Host.
export function pageUrl(statusPageUrl: string, opened: OpenedPage): string {
	const base = new URL(statusPageUrl);
	if (opened.viaDomain && opened.row.customDomain)
		return `${base.protocol}//${opened.row.customDomain}`;
	return `${base.origin}${base.pathname.replace(/\/$/, '')}/${opened.row.slug}`;
}
