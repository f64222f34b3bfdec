import { redirect } from '@sveltejs/kit';
import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({
	locations: (await locals.api.privateLocation.list({ perPage: 100 })).data
});

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		let created: { id: number };
		try {
			created = await locals.api.privateLocation.create({ name: text(v, 'name') ?? '' });
		} catch (err) {
			return actionError(err, v);
		}
		redirect(303, `/private-locations/${created.id}?created=1`);
	}
};
