import { redirect } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import { actionError, loadError } from '$lib/server/errors';
import { formValues, id } from '$lib/server/form';
import { listAllMonitors } from '$lib/server/monitors';
import { assignmentOf } from '$lib/server/private-location-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const [location, monitors] = await Promise.all([
		locals.api.privateLocation.get({ privateLocationId: id(params.id) }),
		listAllMonitors(locals.api)
	]).catch(loadError);
	return {
		location,
		monitors,
		justCreated: url.searchParams.has('created'),
		ingestUrl: getUpstate().config.urls.ingest
	};
};

export const actions: Actions = {
	assign: async ({ locals, params, request }) => {
		const data = await request.formData();
		try {
			await locals.api.privateLocation.assignMonitors({
				privateLocationId: id(params.id),
				...assignmentOf(data)
			});
			return { saved: true };
		} catch (err) {
			return actionError(err, formValues(data));
		}
	},
	delete: async ({ locals, params }) => {
		try {
			await locals.api.privateLocation.remove({ privateLocationId: id(params.id) });
		} catch (err) {
			return actionError(err);
		}
		redirect(303, '/private-locations');
	}
};
