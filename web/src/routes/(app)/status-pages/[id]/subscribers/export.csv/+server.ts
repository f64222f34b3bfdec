import { loadError } from '$lib/server/errors';
import { id } from '$lib/server/form';
import type { RequestHandler } from './$types';

// The Subscribers tab's CSV download (escaping and the formula guard live in the verb).
export const GET: RequestHandler = async ({ locals, params }) => {
	const pageId = id(params.id);
	const csv = await locals.api.subscriber.exportCsv({ pageId }).catch(loadError);
	return new Response(csv, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="subscribers-page-${pageId}.csv"`,
			'cache-control': 'no-store'
		}
	});
};
