import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({
	outbox: await locals.api.mailOutbox.list()
});
