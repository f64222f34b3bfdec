import { redirect } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import { monitorInput } from '$lib/server/monitor-form';
import type { Actions } from './$types';

export const actions: Actions = {
	default: async ({ locals, request }) => {
		const values = formValues(await request.formData());
		let id: number;
		try {
			// safe because the router's own schema validates the shape
			({ id } = await locals.api.monitor.create(
				monitorInput(values, 'create', getUpstate().config.selfHost) as Parameters<
					typeof locals.api.monitor.create
				>[0]
			));
		} catch (err) {
			return actionError(err, values);
		}
		redirect(303, `/monitors/${id}`);
	}
};
