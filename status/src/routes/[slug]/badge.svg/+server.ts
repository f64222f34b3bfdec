import { badgeResponse } from '$lib/server/badge-route.ts';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = (event) => badgeResponse(event);
