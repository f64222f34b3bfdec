import { actionError } from '$lib/server/errors';
import { formValues } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => {
	const grants = await locals.api.oauth.listGrants();
	return { apps: grants.data };
};

export const actions: Actions = {
	revoke: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.oauth.revokeGrant({ grantId: Number(v.grantId) });
		} catch (err) {
			return actionError(err, v, { notFound: 'form' });
		}
	}
};
