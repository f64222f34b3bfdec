import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ServiceError, type ErrorCode } from '../domain/errors.ts';
import { validationErrorFrom } from '../domain/parse.ts';

const FROM_TRPC: Partial<Record<TRPCError['code'], ErrorCode>> = {
	NOT_FOUND: 'NOT_FOUND',
	BAD_REQUEST: 'VALIDATION',
	PARSE_ERROR: 'VALIDATION',
	CONFLICT: 'CONFLICT',
	PRECONDITION_FAILED: 'PRECONDITION_FAILED',
	UNAUTHORIZED: 'UNAUTHORIZED',
	FORBIDDEN: 'FORBIDDEN'
};

// Any error thrown through the router, as one of the eight codes. Unknown errors become
// INTERNAL with a generic message: their detail goes to the log, never to the caller.
export function toServiceError(err: unknown): ServiceError {
	if (err instanceof ServiceError) return err;
	if (err instanceof ZodError) return validationErrorFrom(err);
	if (err instanceof TRPCError) {
		if (err.cause instanceof ServiceError || err.cause instanceof ZodError)
			return toServiceError(err.cause);
		const code = FROM_TRPC[err.code];
		if (code) return new ServiceError(code, err.message);
	}
	return new ServiceError('INTERNAL', 'internal error', { cause: err });
}
