import { describe, expect, it } from 'vitest';
import { newResultId } from './result-id.ts';

describe('result ids', () => {
	it('are UUIDv7: version 7, RFC variant, the time in the first 48 bits', () => {
		const id = newResultId(Date.UTC(2026, 10, 22));
		expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 22));
	});

	it('sort by the time they were made, and do not repeat', () => {
		const ids = [1000, 2000, 3000].map((t) => newResultId(t));
		expect([...ids].sort()).toEqual(ids);
		expect(new Set(Array.from({ length: 1000 }, () => newResultId(5))).size).toBe(1000);
	});
});
