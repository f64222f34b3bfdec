import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../../status/src/lib/i18n/index.ts';
import { PAGE_LOCALES } from './public/locales.ts';

// The write side accepts exactly the languages the status site ships.
describe('status page locales', () => {
	it('are the status site translations', () => {
		expect([...PAGE_LOCALES].sort()).toEqual(Object.keys(MESSAGES).sort());
	});
});
