import { describe, expect, it } from 'vitest';
import { monitorInput } from './monitor-form.ts';

const base = { type: 'http', name: 'Shop', periodicity: '1m', url: 'https://e.test' };

describe('monitorInput regions', () => {
	it('hosted: empty on create means the plan defaults, on update it clears', () => {
		expect(monitorInput(base).regions).toBeUndefined();
		expect(monitorInput({ ...base, regions: 'a-ams, a-iad' }).regions).toEqual(['a-ams', 'a-iad']);
		expect(monitorInput(base, 'update').regions).toEqual([]);
	});
	it('self-hosted: no hosted regions on create, stored ones kept on update', () => {
		expect(monitorInput({ ...base, regions: 'a-ams' }, 'create', true).regions).toEqual([]);
		expect(monitorInput(base, 'update', true).regions).toBeUndefined();
	});
});
