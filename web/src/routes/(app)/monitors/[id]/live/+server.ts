import { error, json } from '@sveltejs/kit';
import { loadError } from '$lib/server/errors';
import { id } from '$lib/server/form';
import { loadMonitorLive } from '$lib/server/monitor-live';
import type { RequestHandler } from './$types';

// The monitor page polls this while it is visible (the (app) layout guard covers pages only).
export const GET: RequestHandler = async ({ locals, params }) => {
	if (!locals.user) error(401, 'Sign in again to see live checks.');
	const live = await loadMonitorLive(locals.api, id(params.id)).catch(loadError);
	return json(live, { headers: { 'cache-control': 'no-store' } });
};
