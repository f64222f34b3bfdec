import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ListAuditLogsInput } from '../../domain/audit-log/schemas.ts';
import { coercerFor } from './index.ts';

describe('REST input coercion follows the input schema', () => {
	const coerce = coercerFor(
		z.object({
			id: z.number().int(),
			ratio: z.number().optional(),
			active: z.boolean().default(false),
			name: z.string(),
			either: z.union([z.string(), z.number()]).optional(),
			nullable: z.number().nullable().optional()
		})
	);

	it('reads numbers and booleans back only where the schema expects them', () => {
		expect(coerce('id', '42')).toBe(42);
		expect(coerce('ratio', '0.5')).toBe(0.5);
		expect(coerce('nullable', '7')).toBe(7);
		expect(coerce('active', 'true')).toBe(true);
		expect(coerce('active', 'false')).toBe(false);
	});

	it('keeps text where the schema takes a string, and leaves bad values to the schema', () => {
		expect(coerce('name', '42')).toBe('42');
		expect(coerce('name', 'true')).toBe('true');
		expect(coerce('either', '42')).toBe('42');
		expect(coerce('id', 'abc')).toBe('abc');
		expect(coerce('active', 'yes')).toBe('yes');
		expect(coerce('unknown', '1')).toBe('1');
	});

	it('keeps the audit log entityId as text and reads its page as a number', () => {
		const audit = coercerFor(ListAuditLogsInput);
		expect(audit('entityId', '123')).toBe('123');
		expect(audit('page', '2')).toBe(2);
	});
});
