import { redirect } from '@sveltejs/kit';
import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({
	pages: await locals.api.statusPage.list({})
});

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const values = formValues(await request.formData());
		let pageId: number;
		try {
			({ id: pageId } = await locals.api.statusPage.create({
				title: text(values, 'title') ?? '',
				slug: text(values, 'slug') ?? '',
				description: values.description ?? ''
			}));
		} catch (err) {
			return actionError(err, values);
		}
		redirect(303, `/status-pages/${pageId}`);
	}
};
