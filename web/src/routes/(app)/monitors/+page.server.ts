import type { PageServerLoad } from './$types';

// 50 a page, newest pages by `?page=` (the list's own cap).
export const load: PageServerLoad = async ({ locals, url }) => {
	const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
	return { monitors: await locals.api.monitor.list({ page, perPage: 50 }) };
};
