import { redirect } from '@sveltejs/kit';
import { actionError, loadError } from '$lib/server/errors';
import { formValues, id } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, url }) => {
	const [location, monitors] = await Promise.all([
		locals.api.privateLocation.get({ privateLocationId: id(params.id) }),
		locals.api.monitor.list({ perPage: 50 })
	]).catch(loadError);
	return { location, monitors: monitors.data, justCreated: url.searchParams.has('created') };
};

export const actions: Actions = {
	assign: async ({ locals, params, request }) => {
		const data = await request.formData();
		try {
			await locals.api.privateLocation.update({
				privateLocationId: id(params.id),
				monitor_ids: data.getAll('monitor_ids').map(Number)
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
