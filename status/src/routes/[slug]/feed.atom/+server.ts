import { feedResponse } from '$lib/server/feed-route.ts';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = (event) => feedResponse(event, 'atom');
