import { error } from '@sveltejs/kit';
import { loadError } from '$lib/server/errors';
import { id } from '$lib/server/form';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, params }) => {
	const monitorId = id(params.id);
	const [monitor, log] = await Promise.all([
		locals.api.monitor.get({ monitorId }),
		locals.api.responseLog.get({ logId: params.logId })
	]).catch(loadError);
	// A log of another monitor under this URL is not this page's.
	if (log.monitorId !== monitor.id) error(404, 'Not found');
	return { monitor, log };
};
