import { redirect } from '@sveltejs/kit';
import { getUpstate } from '@upstate/server';
import type { Actions } from './$types';

export const actions: Actions = {
	default: async ({ locals, cookies }) => {
		if (locals.user) await locals.api.auth.signOut();
		const blank = getUpstate().lucia.createBlankSessionCookie();
		cookies.set(blank.name, blank.value, { ...blank.attributes, path: '/' });
		redirect(303, '/sign-in');
	}
};
