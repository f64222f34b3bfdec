import { ServiceError } from '../src/domain/errors.ts';

// "CODE: message" of the ServiceError a promise rejects with; fails the test otherwise.
export async function codeOf(p: Promise<unknown>): Promise<string> {
	try {
		await p;
	} catch (err) {
		if (err instanceof ServiceError) return `${err.code}: ${err.message}`;
		throw err;
	}
	throw new Error('expected a ServiceError');
}
