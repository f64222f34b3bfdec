import { Code, ConnectError, type UnaryRequest, type UnaryResponse } from '@connectrpc/connect';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ServiceError, type ErrorCode } from '../domain/errors.ts';
import { mapIngestErrors } from './errors.ts';

// What a method's failure becomes on the wire: the interceptor in front of every ingest method.
const failWith = (err: unknown) =>
	mapIngestErrors(async () => {
		throw err;
	})({} as UnaryRequest).then(
		() => expect.unreachable('the call should fail'),
		(e: unknown) => e as ConnectError
	);

describe('ingest error interceptor', () => {
	it.each<[ErrorCode, Code]>([
		['NOT_FOUND', Code.NotFound],
		['VALIDATION', Code.InvalidArgument],
		['CONFLICT', Code.AlreadyExists],
		['LIMIT_EXCEEDED', Code.ResourceExhausted],
		['PRECONDITION_FAILED', Code.FailedPrecondition],
		['UNAUTHORIZED', Code.Unauthenticated],
		['FORBIDDEN', Code.PermissionDenied]
	])('%s → %s with the message and our code', async (code, connectCode) => {
		const err = await failWith(new ServiceError(code, 'm'));
		expect(err).toMatchObject({ code: connectCode, rawMessage: 'm' });
		expect(err.metadata.get('upstate-error-code')).toBe(code);
	});

	it('a ZodError is INVALID_ARGUMENT naming the field', async () => {
		const zod = z.object({ a: z.number() }).safeParse({ a: 'x' }).error;
		const err = await failWith(zod);
		expect(err.code).toBe(Code.InvalidArgument);
		expect(err.rawMessage).toMatch(/^a: /);
	});

	it('an unknown error is INTERNAL without its details, logged once as ingest', async () => {
		const log = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			const err = await failWith(new Error('db password is hunter2'));
			expect(err).toMatchObject({ code: Code.Internal, rawMessage: 'internal error' });
			expect(log).toHaveBeenCalledTimes(1);
			expect(String(log.mock.calls[0][0])).toMatch(/^\[ingest\] internal error/);
		} finally {
			log.mockRestore();
		}
	});

	it("passes Connect's own errors through and answers untouched when nothing fails", async () => {
		const own = new ConnectError('unknown key', Code.Unauthenticated);
		expect(await failWith(own)).toBe(own);
		const ok = { message: 'fine' } as unknown as UnaryResponse;
		expect(await mapIngestErrors(async () => ok)({} as UnaryRequest)).toBe(ok);
	});
});
