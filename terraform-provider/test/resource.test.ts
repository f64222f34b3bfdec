import { describe, expect, it } from 'vitest';
import { UNKNOWN } from '../src/codec.ts';
import { PAGE_COMPONENT, PRIVATE_LOCATION, STATUS_PAGE } from '../src/resources.ts';
import { pairId } from '../src/resource.ts';

// The plan and state rules of the simple resources, without a server.
const config = (over: Record<string, unknown>) =>
	Object.fromEntries(
		PAGE_COMPONENT.schema.attributes.map((a) => [a.name, (over[a.name] ?? null) as never])
	);

describe('simple resources', () => {
	it('plans server defaults, unknown computed values on create, and replacement on page_id', () => {
		const { planned } = PAGE_COMPONENT.plan(null, config({ page_id: '3', name: 'Desk' }));
		expect(planned).toMatchObject({
			type: 'static',
			description: '',
			order: 0,
			id: UNKNOWN,
			created_at: UNKNOWN
		});
		const prior = { ...planned, id: '9', created_at: 'then' };
		expect(PAGE_COMPONENT.plan(prior, config({ page_id: '3', name: 'Desk' }))).toEqual({
			planned: prior,
			replace: []
		});
		const moved = PAGE_COMPONENT.plan(prior, config({ page_id: '4', name: 'Desk' }));
		expect(moved.replace).toEqual(['page_id']);
		expect(moved.planned.id).toBe(UNKNOWN);
		expect(PAGE_COMPONENT.plan(prior, config({ page_id: '3', monitor_id: '5' })).replace).toEqual([
			'type'
		]);
	});

	it('keeps the agent key on an update; owned lists and maps left out plan as null', () => {
		const prior = {
			id: '1',
			name: 'rack',
			monitor_ids: ['2'],
			metadata: { a: '1' },
			token: 'us_secret',
			created_at: 'then'
		};
		const { planned } = PRIVATE_LOCATION.plan(prior, {
			...prior,
			monitor_ids: null,
			metadata: null,
			token: null,
			created_at: null
		});
		expect(planned).toEqual({ ...prior, monitor_ids: null, metadata: null });
	});

	it('never plans a write-only password away, and import ids are page_id/child_id', () => {
		const cfg = Object.fromEntries(
			STATUS_PAGE.schema.attributes.map((a) => [a.name, null as never])
		);
		const { planned } = STATUS_PAGE.plan(null, { ...cfg, title: 'T', slug: 't', password: 'pw' });
		expect(planned).toMatchObject({ password: 'pw', access_type: 'public', allow_index: true });
		expect(pairId('3/12', 'component', 'x')).toEqual([3, 12]);
		expect(() => pairId('12', 'component', '`3/12`')).toThrow(/not a component import id/);
	});
});
