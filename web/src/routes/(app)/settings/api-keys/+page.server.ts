import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({
	keys: (await locals.api.apiKey.list()).data
});

export const actions: Actions = {
	create: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			const created = await locals.api.apiKey.create({
				name: text(v, 'name') ?? '',
				scope: v.scope === 'write' ? 'write' : 'read'
			});
			// The only time the key leaves the server: this one response.
			return { created: { name: created.name, scope: created.scope, key: created.key } };
		} catch (err) {
			return actionError(err, v);
		}
	},
	revoke: async ({ locals, request }) => {
		const v = formValues(await request.formData());
		try {
			await locals.api.apiKey.revoke({ keyId: Number(v.keyId) });
		} catch (err) {
			return actionError(err, v);
		}
	}
};
