import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({ members: (await locals.api.member.list()).data });

export const actions: Actions = {
	rename: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.workspace.update({ name: text(v, 'name') ?? '' });
			return { saved: true };
		} catch (err) {
			return actionError(err, v);
		}
	}
};
