import { loadError } from '$lib/server/errors';
import { id } from '$lib/server/form';
import type { LayoutServerLoad } from './$types';

// The page every tab (settings, reports, maintenance) belongs to.
export const load: LayoutServerLoad = async ({ locals, params }) => ({
	page: await locals.api.statusPage.get({ pageId: id(params.id) }).catch(loadError)
});
