import { error } from '@sveltejs/kit';
import { id } from '$lib/server/form';
import { loadError } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const mailId = id(params.id);
	if (!(mailId > 0)) error(404, 'Not found');
	try {
		return { mail: await locals.api.mailOutbox.get({ mailId }) };
	} catch (err) {
		loadError(err);
	}
};
