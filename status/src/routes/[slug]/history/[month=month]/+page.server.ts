import { loadHistory } from '$lib/server/history-route.ts';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = loadHistory;
