import { Code, ConnectError } from '@connectrpc/connect';
import { fromJson } from '@bufbuild/protobuf';
import { StructSchema } from '@bufbuild/protobuf/wkt';
import type { ErrorCode } from '../../domain/errors.ts';
import { toServiceError } from '../../router/errors.ts';

export const CONNECT_CODE: Record<ErrorCode, Code> = {
	NOT_FOUND: Code.NotFound,
	VALIDATION: Code.InvalidArgument,
	CONFLICT: Code.AlreadyExists,
	LIMIT_EXCEEDED: Code.ResourceExhausted,
	PRECONDITION_FAILED: Code.FailedPrecondition,
	UNAUTHORIZED: Code.Unauthenticated,
	FORBIDDEN: Code.PermissionDenied,
	INTERNAL: Code.Internal
};

// The one mapping from the eight codes to Connect/gRPC codes (for /rpc and ingest). The message
// is the domain's, as on REST; our code and the field issues travel in a Struct detail
// (`{ code, issues: [{ path, message }] }`) and the `upstate-error-code` trailer/header.
export function mapError(err: unknown, surface = 'rpc'): ConnectError {
	if (err instanceof ConnectError) return err;
	const e = toServiceError(err);
	if (e.code === 'INTERNAL')
		console.error(
			`[${surface}] internal error ${e.cause instanceof Error ? e.cause.stack : String(e.cause)}`
		);
	const detail = { code: e.code, ...(e.issues ? { issues: e.issues } : {}) };
	return new ConnectError(e.message, CONNECT_CODE[e.code], { 'upstate-error-code': e.code }, [
		{ desc: StructSchema, value: fromJson(StructSchema, detail) }
	]);
}
