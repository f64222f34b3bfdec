import { redirect } from '@sveltejs/kit';
import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import type { Actions } from './$types';

export const actions: Actions = {
	default: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.workspace.switch({ workspaceId: Number(v.workspaceId) });
		} catch (err) {
			return actionError(err, v);
		}
		redirect(303, '/monitors');
	}
};
