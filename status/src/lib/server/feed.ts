import type { PublicFeedOutput } from '@upstate/server';
import { messagesFor } from '../i18n/index.ts';
import { escapeXml } from './xml.ts';

type Feed = NonNullable<PublicFeedOutput['feed']>;
type Entry = { id: string; title: string; link: string; updated: string; html: string };

const rfc822 = (iso: string) => new Date(iso).toUTCString(); // "Sun, 22 Nov 2026 21:00:00 GMT"

// One entry per report (its updates newest first) and per maintenance window, latest change first.
function entries(feed: Feed, locale: string): Entry[] {
	const m = messagesFor(locale);
	const reports = feed.reports.map((r) => ({
		id: `${feed.url}/reports/${r.id}`,
		title: `${r.title} (${m.reportStatus[r.status] ?? r.status})`,
		link: `${feed.url}/reports/${r.id}`,
		updated: r.updated_at,
		html: r.updates
			.map(
				(u) =>
					`<p><strong>${escapeXml(m.reportStatus[u.status] ?? u.status)}</strong> (${u.date}): ${escapeXml(u.message)}</p>`
			)
			.join('')
	}));
	const windows = feed.maintenances.map((w) => ({
		id: `${feed.url}#maintenance-${w.id}`,
		title: `${m.maintenance}: ${w.title}`,
		link: feed.url,
		updated: w.updated_at,
		html: `<p>${w.from} – ${w.to}</p>${w.message ? `<p>${escapeXml(w.message)}</p>` : ''}`
	}));
	return [...reports, ...windows].sort((a, b) => b.updated.localeCompare(a.updated));
}

export function toRss(args: { title: string; feed: Feed; locale: string; self: string }): string {
	const { feed } = args;
	const items = entries(feed, args.locale)
		.map(
			(e) =>
				`<item><title>${escapeXml(e.title)}</title><link>${escapeXml(e.link)}</link>` +
				`<guid isPermaLink="false">${escapeXml(e.id)}</guid><pubDate>${rfc822(e.updated)}</pubDate>` +
				`<description>${escapeXml(e.html)}</description></item>`
		)
		.join('');
	return (
		`<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>` +
		`<title>${escapeXml(args.title)}</title><link>${escapeXml(feed.url)}</link>` +
		`<description>${escapeXml(feed.description || args.title)}</description>` +
		`<language>${escapeXml(args.locale)}</language><lastBuildDate>${rfc822(feed.updated_at)}</lastBuildDate>` +
		`<atom:link href="${escapeXml(args.self)}" rel="self" type="application/rss+xml"/>${items}</channel></rss>\n`
	);
}

export function toAtom(args: { title: string; feed: Feed; locale: string; self: string }): string {
	const { feed } = args;
	const items = entries(feed, args.locale)
		.map(
			(e) =>
				`<entry><id>${escapeXml(e.id)}</id><title>${escapeXml(e.title)}</title>` +
				`<link rel="alternate" href="${escapeXml(e.link)}"/><updated>${e.updated}</updated>` +
				`<content type="html">${escapeXml(e.html)}</content></entry>`
		)
		.join('');
	return (
		`<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(args.locale)}">` +
		`<id>${escapeXml(feed.url)}</id><title>${escapeXml(args.title)}</title><updated>${feed.updated_at}</updated>` +
		`<author><name>${escapeXml(args.title)}</name></author>` +
		`<link rel="alternate" href="${escapeXml(feed.url)}"/><link rel="self" href="${escapeXml(args.self)}"/>` +
		`${items}</feed>\n`
	);
}
