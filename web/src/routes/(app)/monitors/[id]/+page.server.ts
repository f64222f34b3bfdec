import { redirect } from '@sveltejs/kit';
import { actionError, loadError } from '$lib/server/errors';
import { formValues, id } from '$lib/server/form';
import { monitorInput } from '$lib/server/monitor-form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const monitorId = id(params.id);
	const [monitor, status] = await Promise.all([
		locals.api.monitor.get({ monitorId }),
		locals.api.monitor.status({ monitorId })
	]).catch(loadError);
	// Response logs are HTTP-only and a plan feature: show them when the plan has them.
	const logs =
		monitor.type === 'http'
			? await locals.api.responseLog.list({ monitorId, limit: 20 }).catch(() => null)
			: null;
	return { monitor, status, logs };
};

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
