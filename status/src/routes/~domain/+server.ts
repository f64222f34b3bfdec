import { json } from '@sveltejs/kit';
import type { RequestHandler } from './$types';

// Host → slug for the reroute hook; public information (the page is reachable by slug anyway).
export const GET: RequestHandler = async ({ locals, url }) =>
	json(await locals.api.statusPage.resolveDomain({ host: url.searchParams.get('host') ?? '' }));
