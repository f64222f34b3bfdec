import { error, type RequestEvent } from '@sveltejs/kit';
import { messagesFor } from '../i18n/index.ts';
import type { ComponentState } from '../page-status.ts';
import { badgeSvg } from './badge.ts';
import { loadError } from './errors.ts';
import { deniedResponse } from './gated.ts';
import { corsHeaders, pageLocator, readerFacts, viewHeaders } from './reader.ts';

// GET /<slug>/badge.svg (the banner) and /<slug>/components/<id>/badge.svg (one component).
export async function badgeResponse(event: RequestEvent<{ slug: string }>, componentId?: number) {
	const data = await event.locals.api.statusPage
		.getPublic({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	if (!data.page) return deniedResponse(data.access, viewHeaders(data.head));
	const m = messagesFor(data.head.default_locale);
	let label = data.head.title;
	let state: ComponentState = data.page.banner;
	if (componentId !== undefined) {
		const all = data.page.sections.flatMap((s) =>
			s.kind === 'group' ? s.components : [s.component]
		);
		const c = all.find((x) => x.id === componentId);
		if (!c) error(404, 'No such component.');
		label = c.name;
		state = c.state;
	}
	const message = componentId === undefined ? m.banner[data.page.banner] : m.state[state];
	return new Response(badgeSvg({ label, message, state }), {
		headers: {
			'content-type': 'image/svg+xml; charset=utf-8',
			...corsHeaders(data.head),
			...viewHeaders(data.head)
		}
	});
}
