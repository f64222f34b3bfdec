import { Code, ConnectError } from '@connectrpc/connect';
import { StructSchema } from '@bufbuild/protobuf/wkt';
import { toJson } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError, type ErrorCode } from '../../domain/errors.ts';
import { mapError } from './errors.ts';

const detailOf = (err: ConnectError) => toJson(StructSchema, err.findDetails(StructSchema)[0]);

describe('Connect mapError', () => {
	it.each<[ErrorCode, Code]>([
		['NOT_FOUND', Code.NotFound],
		['VALIDATION', Code.InvalidArgument],
		['CONFLICT', Code.AlreadyExists],
		['LIMIT_EXCEEDED', Code.ResourceExhausted],
		['PRECONDITION_FAILED', Code.FailedPrecondition],
		['UNAUTHORIZED', Code.Unauthenticated],
		['FORBIDDEN', Code.PermissionDenied],
		['INTERNAL', Code.Internal]
	])('%s → %s with the message, our code in a detail and a header', (code, connectCode) => {
		const err = mapError(new ServiceError(code, 'm'));
		expect(err).toMatchObject({ code: connectCode, rawMessage: 'm' });
		expect(err.metadata.get('upstate-error-code')).toBe(code);
		expect(detailOf(err)).toEqual({ code });
	});

	it('turns a ZodError into INVALID_ARGUMENT naming the field, and hides unknown errors', () => {
		const zod = z.object({ a: z.number() }).safeParse({ a: 'x' }).error;
		const invalid = mapError(zod);
		expect(invalid.code).toBe(Code.InvalidArgument);
		expect(invalid.rawMessage).toMatch(/^a: /);
		expect(detailOf(invalid)).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'a' }] });
		const hidden = mapError(new Error('db password is hunter2'));
		expect(hidden).toMatchObject({ code: Code.Internal, rawMessage: 'internal error' });
	});

	it('passes errors Connect itself raised through unchanged', () => {
		const own = new ConnectError('bad frame', Code.InvalidArgument);
		expect(mapError(own)).toBe(own);
	});
});
