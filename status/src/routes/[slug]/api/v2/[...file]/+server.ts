import { error, json } from '@sveltejs/kit';
import type { StatuspageV2Output } from '@upstate/server';
import { loadError } from '$lib/server/errors.ts';
import { deniedResponse } from '$lib/server/gated.ts';
import { corsHeaders, pageLocator, readerFacts, viewHeaders } from '$lib/server/reader.ts';
import type { RequestHandler } from './$types';

type V2 = StatuspageV2Output;
const unresolved = (i: V2['incidents'][number]) =>
	i.status !== 'resolved' && i.status !== 'postmortem';

// Atlassian Statuspage's public v2 files, each a view of one gated verb result.
const FILES: Record<string, (v: V2) => object> = {
	'summary.json': (v) => ({
		page: v.page,
		components: v.components,
		incidents: v.incidents.filter(unresolved),
		scheduled_maintenances: v.scheduled_maintenances.filter((m) => m.status !== 'completed'),
		status: v.status
	}),
	'status.json': (v) => ({ page: v.page, status: v.status }),
	'components.json': (v) => ({ page: v.page, components: v.components }),
	'incidents.json': (v) => ({ page: v.page, incidents: v.incidents }),
	'incidents/unresolved.json': (v) => ({ page: v.page, incidents: v.incidents.filter(unresolved) }),
	'scheduled-maintenances.json': (v) => ({
		page: v.page,
		scheduled_maintenances: v.scheduled_maintenances
	}),
	'scheduled-maintenances/upcoming.json': (v) => ({
		page: v.page,
		scheduled_maintenances: v.scheduled_maintenances.filter((m) => m.status === 'scheduled')
	}),
	'scheduled-maintenances/active.json': (v) => ({
		page: v.page,
		scheduled_maintenances: v.scheduled_maintenances.filter((m) => m.status === 'in_progress')
	})
};

export const GET: RequestHandler = async (event) => {
	const view = FILES[event.params.file];
	if (!view) error(404, 'No such file.');
	const { access, head, v2 } = await event.locals.api.statusPage
		.getStatuspageV2({ page: pageLocator(event.params.slug), reader: readerFacts(event) })
		.catch(loadError);
	const headers = { ...corsHeaders(head), ...viewHeaders(head) };
	if (!v2) return deniedResponse(access, headers);
	return json(view(v2), { headers });
};
