import { error } from '@sveltejs/kit';
import { badgeResponse } from '$lib/server/badge-route.ts';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = (event) => {
	const id = Number(event.params.id);
	if (!Number.isInteger(id) || id <= 0) error(404, 'No such component.');
	return badgeResponse(event, id);
};
