import { error } from '@sveltejs/kit';
import { toServiceError } from '@upstate/server';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params, setHeaders }) => {
	try {
		const page = await locals.api.statusPage.getPublic({ slug: params.slug });
		// Access control for non-public pages arrives with the status-site work; refuse until then.
		if (page.access_type !== 'public') error(403, 'This status page is not public.');
		if (!page.allow_index) setHeaders({ 'x-robots-tag': 'noindex' });
		return { page };
	} catch (err) {
		if (toServiceError(err).code === 'NOT_FOUND') error(404, 'No status page here.');
		throw err;
	}
};
