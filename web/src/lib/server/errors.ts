import { error, fail, type ActionFailure } from '@sveltejs/kit';
import { toServiceError, type FieldIssue } from '@upstate/server';

export type FormFailure = { values: Record<string, string>; message: string; issues: FieldIssue[] };

// One mapping for every form action and load (STYLE 24): a recoverable ServiceError becomes a
// fail() with the safe values echoed back; NOT_FOUND becomes a 404 page, or a form message when
// `notFound: 'form'` (the id came from a form field, e.g. a group deleted meanwhile); the rest
// is rethrown.
export function actionError(
	err: unknown,
	values: Record<string, string> = {},
	options: { notFound?: 'page' | 'form' } = {}
): ActionFailure<FormFailure> {
	const e = toServiceError(err);
	const safe = Object.fromEntries(
		Object.entries(values).filter(([k]) => !/password|key|token|secret/i.test(k))
	);
	switch (e.code) {
		case 'VALIDATION':
			return fail(400, { values: safe, message: e.message, issues: e.issues ?? [] });
		case 'CONFLICT':
			return fail(409, { values: safe, message: e.message, issues: [] });
		case 'LIMIT_EXCEEDED':
		case 'FORBIDDEN':
		case 'PRECONDITION_FAILED':
			return fail(403, { values: safe, message: e.message, issues: [] });
		case 'NOT_FOUND':
			if (options.notFound === 'form')
				return fail(404, { values: safe, message: e.message, issues: [] });
			return error(404, e.message);
		default:
			throw err;
	}
}

export function loadError(err: unknown): never {
	if (toServiceError(err).code === 'NOT_FOUND') error(404, 'Not found');
	throw err;
}
