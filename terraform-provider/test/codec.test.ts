import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue, hasUnknown, UNKNOWN } from '../src/codec.ts';
import { monitorState, planMonitor, updateInput } from '../src/monitor.ts';

describe('DynamicValue codec', () => {
	it('writes an unknown as cty does (fixext1, type 0) and reads it back', () => {
		const { msgpack } = encodeValue({ id: UNKNOWN, name: 'a' });
		expect(Buffer.from(msgpack).includes(Buffer.from([0xd4, 0x00, 0x00]))).toBe(true);
		expect(decodeValue({ msgpack })).toEqual({ id: UNKNOWN, name: 'a' });
	});

	it('reads a refined unknown (extension 12 with its refinements) as unknown', () => {
		// {1: false (not null), 2: "api-" (string prefix)}, as Terraform sends for "api-${x}"
		const refinements = Buffer.from('8201c202a46170692d', 'hex');
		const value = Buffer.concat([
			Buffer.from([0x81, 0xa4]),
			Buffer.from('name'),
			Buffer.from([0xc7, refinements.length, 0x0c]),
			refinements
		]);
		const decoded = decodeValue({ msgpack: value });
		expect(decoded).toEqual({ name: UNKNOWN });
		expect(hasUnknown(decoded)).toBe(true);
	});

	it('keeps null, numbers, bools, lists, maps and nested objects', () => {
		const v = {
			s: 'x',
			n: 45000,
			f: 1.5,
			b: false,
			nil: null,
			list: ['a', 'b'],
			objs: [{ key: 'k', value: 'v' }],
			map: { a: '1' },
			nested: { endpoint: 'https://o', headers: null }
		};
		const back = decodeValue(encodeValue(v));
		expect(back).toEqual(v);
		expect(hasUnknown(back)).toBe(false);
	});

	it('reads msgpack nil as null, an empty DynamicValue as null, JSON state as an object', () => {
		expect(decodeValue({ msgpack: encode(null) })).toBeNull();
		expect(decodeValue({})).toBeNull();
		expect(decodeValue({ json: Buffer.from('{"id":"3","tags":null}') })).toEqual({
			id: '3',
			tags: null
		});
	});
});

const config = (over: Record<string, unknown> = {}) =>
	Object.fromEntries(
		Object.entries({
			id: null,
			type: 'http',
			name: 'web',
			periodicity: '1m',
			description: null,
			timeout: null,
			degraded_at: null,
			retry: null,
			active: null,
			public: null,
			regions: null,
			tags: null,
			open_telemetry: null,
			url: 'https://example.com',
			method: null,
			body: null,
			follow_redirects: null,
			headers: null,
			status_code_assertions: null,
			body_assertions: null,
			header_assertions: null,
			uri: null,
			record_assertions: null,
			private_location_ids: null,
			notification_channel_ids: null,
			created_at: null,
			...over
		})
	) as never;

describe('monitor plan', () => {
	it('on create: keeps configured values, fills server defaults, leaves computed unknown', () => {
		const { planned, replace } = planMonitor(null, config({ retry: 5 }));
		expect(replace).toBe(false);
		expect(planned).toMatchObject({ name: 'web', retry: 5, timeout: 45000, method: 'GET' });
		expect(planned.id).toBe(UNKNOWN);
		expect(planned.regions).toBe(UNKNOWN);
		expect(planned.headers).toBeNull();
	});

	it('gives no http defaults to a tcp monitor', () => {
		const { planned } = planMonitor(null, config({ type: 'tcp', url: null, uri: 'h:1' }));
		expect(planned.method).toBeNull();
		expect(planned.follow_redirects).toBeNull();
	});

	it('with nothing changed, plans the prior state; a changed type replaces', () => {
		const prior = { ...planMonitor(null, config()).planned };
		for (const k of Object.keys(prior)) if (prior[k] === UNKNOWN) prior[k] = k === 'id' ? '7' : [];
		expect(planMonitor(prior, config({ regions: [] })).planned).toEqual({ ...prior });
		const renamed = planMonitor(prior, config({ regions: [], name: 'new' })).planned;
		expect(renamed.id).toBe('7');
		expect(renamed.private_location_ids).toBe(UNKNOWN);
		expect(planMonitor(prior, config({ type: 'tcp' })).replace).toBe(true);
	});

	it('an update sends only changes and clears a list removed from configuration', () => {
		const prior = config({ id: '7', headers: [{ key: 'a', value: 'b' }], retry: 3 });
		const input = updateInput(prior, config({ id: '7', retry: 4 }));
		expect(input).toEqual({ monitorId: 7, retry: 4, headers: [] });
	});

	it('state from the server keeps an unconfigured empty list as null', () => {
		const state = monitorState(
			{ id: 9, type: 'tcp', name: 'x', headers: [], tags: ['a'], open_telemetry: undefined },
			null
		);
		expect(state).toMatchObject({ id: '9', headers: null, tags: ['a'], open_telemetry: null });
		expect(Object.keys(state)).toHaveLength(26);
	});
});
