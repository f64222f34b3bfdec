import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError, type ErrorCode } from '../../domain/errors.ts';
import { mapError } from './errors.ts';

describe('REST mapError', () => {
	it.each<[ErrorCode, number]>([
		['NOT_FOUND', 404],
		['VALIDATION', 400],
		['CONFLICT', 409],
		['LIMIT_EXCEEDED', 403],
		['PRECONDITION_FAILED', 412],
		['UNAUTHORIZED', 401],
		['FORBIDDEN', 403],
		['INTERNAL', 500]
	])('%s → %i with the envelope', (code, status) => {
		expect(mapError(new ServiceError(code, 'm'))).toEqual({
			status,
			body: { error: { code, message: 'm' } }
		});
	});

	it('turns a ZodError into VALIDATION with issues and hides unknown errors', () => {
		const zod = z.object({ a: z.number() }).safeParse({ a: 'x' }).error;
		expect(mapError(zod).body.error).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'a' }] });
		expect(mapError(new Error('db password is hunter2'))).toEqual({
			status: 500,
			body: { error: { code: 'INTERNAL', message: 'internal error' } }
		});
	});
});
