import { redirect } from '@sveltejs/kit';
import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => {
	if (locals.user) redirect(303, '/monitors');
};

export const actions: Actions = {
	default: async ({ locals, request, url }) => {
		const values = formValues(await request.formData());
		const next = url.searchParams.get('next') ?? undefined;
		try {
			await locals.api.auth.requestMagicLink({
				email: values.email ?? '',
				next: next?.startsWith('/') ? next : undefined
			});
			return { sent: true, email: values.email };
		} catch (err) {
			return actionError(err, values);
		}
	}
};
