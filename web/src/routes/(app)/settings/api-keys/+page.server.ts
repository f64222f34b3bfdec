import { actionError } from '$lib/server/errors';
import { formValues, text } from '$lib/server/form';
import type { Actions, PageServerLoad } from './$types';

// Each key with the member it acts for (its creator's current role bounds what it administers);
// a creator who left the workspace shows as no one.
export const load: PageServerLoad = async ({ locals }) => {
	const [keys, members] = await Promise.all([locals.api.apiKey.list(), locals.api.member.list()]);
	const byId = new Map(members.data.map((m) => [m.user_id, m]));
	return {
		keys: keys.data.map((k) => {
			const creator = k.created_by_id === null ? undefined : byId.get(k.created_by_id);
			return { ...k, creator: creator ? `${creator.email} (${creator.role})` : null };
		})
	};
};

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
