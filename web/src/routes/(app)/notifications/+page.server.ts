import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals }) => ({
	channels: (await locals.api.notificationChannel.list({ perPage: 200 })).data
});
