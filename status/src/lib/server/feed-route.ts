import type { RequestEvent } from '@sveltejs/kit';
import { loadError } from './errors.ts';
import { toAtom, toRss } from './feed.ts';
import { deniedResponse } from './gated.ts';
import { corsHeaders, pageLocator, readerFacts, viewHeaders } from './reader.ts';

// GET /<slug>/feed.rss and /feed.atom (and the custom domain's root): the gate runs in the verb.
export async function feedResponse(event: RequestEvent<{ slug: string }>, format: 'rss' | 'atom') {
	const data = await event.locals.api.statusPage
		.getPublicFeed({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	if (!data.feed) return deniedResponse(data.access, viewHeaders(data.head));
	const args = {
		title: data.head.title,
		feed: data.feed,
		locale: data.head.default_locale,
		self: `${data.feed.url}/feed.${format}`
	};
	return new Response(format === 'rss' ? toRss(args) : toAtom(args), {
		headers: {
			'content-type': `application/${format}+xml; charset=utf-8`,
			...corsHeaders(data.head),
			...viewHeaders(data.head)
		}
	});
}
