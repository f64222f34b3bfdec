import { redirect } from '@sveltejs/kit';
import { actionError, loadError } from '$lib/server/errors';
import { formValues, id } from '$lib/server/form';
import { monitorInput } from '$lib/server/monitor-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => ({
	monitor: await locals.api.monitor.get({ monitorId: id(params.id) }).catch(loadError)
});

export const actions: Actions = {
	update: async ({ locals, params, request }) => {
		const values = formValues(await request.formData());
		const { type: _type, ...fields } = monitorInput(values);
		try {
			// safe because the router's own schema validates the shape
			await locals.api.monitor.update({ monitorId: id(params.id), ...fields } as Parameters<
				typeof locals.api.monitor.update
			>[0]);
			return { saved: true };
		} catch (err) {
			return actionError(err, values);
		}
	},
	delete: async ({ locals, params }) => {
		try {
			await locals.api.monitor.remove({ monitorId: id(params.id) });
		} catch (err) {
			return actionError(err);
		}
		redirect(303, '/monitors');
	}
};
