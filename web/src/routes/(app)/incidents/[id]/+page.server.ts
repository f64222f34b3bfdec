import { actionError, loadError } from '$lib/server/errors';
import { id } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => ({
	incident: await locals.api.incident.get({ incidentId: id(params.id) }).catch(loadError)
});

export const actions: Actions = {
	acknowledge: async ({ locals, params }) => {
		try {
			await locals.api.incident.acknowledge({ incidentId: id(params.id) });
			return { done: 'Acknowledged.' };
		} catch (err) {
			return actionError(err);
		}
	},
	resolve: async ({ locals, params }) => {
		try {
			await locals.api.incident.resolve({ incidentId: id(params.id) });
			return { done: 'Resolved.' };
		} catch (err) {
			return actionError(err);
		}
	}
};
