import { error } from '@sveltejs/kit';
import { toServiceError } from '@upstate/server';

// The audit log's filter lives in GET params (?entityType=&entityId=&page=), so filtering and
// paging are plain forms and links that work without JS.
export function auditFilter(params: URLSearchParams) {
	const entityType = params.get('entityType')?.trim() || undefined;
	const entityId = params.get('entityId')?.trim() || undefined;
	const page = Number(params.get('page'));
	return { entityType, entityId, page: Number.isInteger(page) && page > 0 ? page : 1 };
}

// Without the plan key the pages show an upgrade notice instead of failing; a bad filter shows
// its message; an unknown or out-of-window entry is a 404. Anything else is rethrown.
export function auditBlocked(err: unknown): { upgrade: boolean; message: string } {
	const e = toServiceError(err);
	if (e.code === 'NOT_FOUND') error(404, 'Not found');
	if (e.code === 'LIMIT_EXCEEDED') return { upgrade: true, message: e.message };
	if (e.code === 'VALIDATION') return { upgrade: false, message: e.message };
	throw err;
}
