import { ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ServiceError, type ErrorCode } from '../../domain/errors.ts';
import { mapError } from './errors.ts';

describe('MCP mapError (spec 7.1)', () => {
	it.each<ErrorCode>([
		'NOT_FOUND',
		'VALIDATION',
		'CONFLICT',
		'LIMIT_EXCEEDED',
		'PRECONDITION_FAILED'
	])('%s is a tool result with isError', (code) => {
		expect(mapError(new ServiceError(code, 'm'))).toEqual({
			isError: true,
			content: [{ type: 'text', text: `${code}: m` }]
		});
	});

	it.each<ErrorCode>(['UNAUTHORIZED', 'FORBIDDEN', 'INTERNAL'])(
		'%s is a JSON-RPC error',
		(code) => {
			expect(() => mapError(new ServiceError(code, 'm'))).toThrow(ProtocolError);
		}
	);
});
