import {
	ProtocolError,
	ProtocolErrorCode,
	type CallToolResult
} from '@modelcontextprotocol/server';
import type { ErrorCode } from '../../domain/errors.ts';
import { toServiceError } from '../../router/errors.ts';

// Spec 7.1: the model can correct these, so they come back as a tool result with isError.
const RECOVERABLE: ErrorCode[] = [
	'NOT_FOUND',
	'VALIDATION',
	'CONFLICT',
	'LIMIT_EXCEEDED',
	'PRECONDITION_FAILED'
];

const JSON_RPC: Record<string, number> = {
	UNAUTHORIZED: -32001,
	FORBIDDEN: -32003,
	INTERNAL: ProtocolErrorCode.InternalError
};

// Returns the tool result for recoverable codes; throws a JSON-RPC error for the others.
export function mapError(err: unknown): CallToolResult {
	const e = toServiceError(err);
	if (RECOVERABLE.includes(e.code)) {
		return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] };
	}
	if (e.code === 'INTERNAL')
		console.error(
			`[mcp] internal error ${e.cause instanceof Error ? e.cause.stack : String(e.cause)}`
		);
	throw new ProtocolError(JSON_RPC[e.code], `${e.code}: ${e.message}`);
}
