import { Code, ConnectError } from '@connectrpc/connect';
import type { ErrorCode } from '../domain/errors.ts';
import { toServiceError } from '../router/errors.ts';

const CONNECT_CODE: Record<ErrorCode, Code> = {
	NOT_FOUND: Code.NotFound,
	VALIDATION: Code.InvalidArgument,
	CONFLICT: Code.AlreadyExists,
	LIMIT_EXCEEDED: Code.ResourceExhausted,
	PRECONDITION_FAILED: Code.FailedPrecondition,
	UNAUTHORIZED: Code.Unauthenticated,
	FORBIDDEN: Code.PermissionDenied,
	INTERNAL: Code.Internal
};

export function toConnectError(err: unknown): ConnectError {
	if (err instanceof ConnectError) return err;
	const e = toServiceError(err);
	if (e.code === 'INTERNAL')
		console.error(
			`[ingest] internal error ${e.cause instanceof Error ? e.cause.stack : String(e.cause)}`
		);
	return new ConnectError(e.message, CONNECT_CODE[e.code]);
}
