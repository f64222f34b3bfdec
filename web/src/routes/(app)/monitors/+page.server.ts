import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({
	monitors: await locals.api.monitor.list({ perPage: 50 })
});
