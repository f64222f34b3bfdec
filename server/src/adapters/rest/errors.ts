import type { ErrorCode } from '../../domain/errors.ts';
import { toServiceError } from '../../router/errors.ts';

export const HTTP_STATUS: Record<ErrorCode, number> = {
	NOT_FOUND: 404,
	VALIDATION: 400,
	CONFLICT: 409,
	LIMIT_EXCEEDED: 403,
	PRECONDITION_FAILED: 412,
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	INTERNAL: 500
};

export type ErrorEnvelope = {
	error: { code: ErrorCode; message: string; issues?: Array<{ path: string; message: string }> };
};

// The REST error envelope (spec 7.2 leaves it to us): { error: { code, message, issues? } }.
// `surface` names where an INTERNAL error is logged (the one log line it gets).
export function mapError(err: unknown, surface = 'rest'): { status: number; body: ErrorEnvelope } {
	const e = toServiceError(err);
	if (e.code === 'INTERNAL')
		console.error(
			`[${surface}] internal error ${e.cause instanceof Error ? e.cause.stack : String(e.cause)}`
		);
	return {
		status: HTTP_STATUS[e.code],
		body: { error: { code: e.code, message: e.message, ...(e.issues ? { issues: e.issues } : {}) } }
	};
}
