import { error, fail } from '@sveltejs/kit';
import { toServiceError } from '@upstate/server';

// Forms return fail(), pages throw error() (STYLE 24). Gate forms echo no values back: the
// only fields are a password or an e-mail address.
export function formError(err: unknown) {
	const e = toServiceError(err);
	switch (e.code) {
		case 'VALIDATION':
		case 'UNAUTHORIZED':
			return fail(e.code === 'VALIDATION' ? 400 : 401, { message: e.message });
		case 'LIMIT_EXCEEDED':
			return fail(429, { message: e.message });
		case 'NOT_FOUND':
			error(404, 'No status page here.');
		default:
			throw err;
	}
}

export function loadError(err: unknown): never {
	if (toServiceError(err).code === 'NOT_FOUND') error(404, 'No status page here.');
	throw err;
}
