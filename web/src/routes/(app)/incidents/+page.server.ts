import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	const filter = url.searchParams.get('filter') === 'open' ? 'open' : 'all';
	return { filter, incidents: await locals.api.incident.list({ filter, perPage: 100 }) };
};
