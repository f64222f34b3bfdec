import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProcedureInfo } from '../procedures.ts';
import { decodeInput, encodeOutput } from './codec.ts';
import { modelOf } from './proto.ts';

// The field rules of proto/README.md on a made-up procedure, and the codec that applies them.
const Item = z.object({ key: z.string(), value: z.string() });
const input = z.object({
	thingId: z.number().int().positive(),
	name: z.string().optional(),
	level: z.number().int().nullable(), // required and nullable: not sent = null
	threshold: z.number().int().nullable().optional(), // update-style: {} = null
	tags: z.array(z.string()), // required list: not sent = []
	items: z.array(Item).optional(), // update-style: present = replace
	mode: z.enum(['a', 'b']).default('a'),
	extra: z.record(z.string(), z.unknown()).optional(),
	labels: z.record(z.string(), z.string()).default({}),
	notes: z.record(z.string(), z.string()).optional() // update-style map: *Map twin
});
const output = z.object({
	id: z.number(),
	score: z.number(),
	note: z.string().nullable(),
	items: z.array(Item),
	meta: z.record(z.string(), z.unknown())
});
const procedure: ProcedureInfo = {
	path: 'thing.update',
	type: 'mutation',
	meta: { connect: {} },
	input,
	output
};
const model = modelOf([procedure]);
const fields = (name: string) =>
	model.messages.get(name)?.fields.map((f) => [f.key, `${f.label} ${f.type}`.trim()]);

describe('zod → proto fields', () => {
	it('names the service and method from the procedure', () => {
		expect(model.services).toMatchObject([
			{ name: 'ThingService', file: 'upstate/v1/thing.proto', rpcs: [{ method: 'UpdateThing' }] }
		]);
	});

	it('gives every request scalar presence and wraps what "not sent" cannot express', () => {
		expect(fields('UpdateThingRequest')).toEqual([
			['thingId', 'optional int32'],
			['name', 'optional string'],
			['level', 'optional int32'],
			['threshold', 'NullableInt32'],
			['tags', 'repeated string'],
			['items', 'ItemInputList'],
			['mode', 'optional string'],
			['extra', 'google.protobuf.Struct'],
			['labels', 'map<string, string>'],
			['notes', 'map<string, string>'],
			['notes', 'StringMap']
		]);
		const notes = model.messages.get('UpdateThingRequest')?.fields.filter((f) => f.key === 'notes');
		expect(notes).toMatchObject([
			{ name: 'notes', deprecated: true },
			{ name: 'notes_map', json: 'notes_map', wrapper: 'map' }
		]);
		expect(fields('StringMap')).toEqual([['values', 'map<string, string>']]);
		expect(fields('ItemInputList')).toEqual([['values', 'repeated ItemInput']]);
		expect(fields('ItemInput')).toEqual([
			['key', 'optional string'],
			['value', 'optional string']
		]);
	});

	it('leaves nullable response values out and types output ids as int32', () => {
		expect(fields('UpdateThingResponse')).toEqual([
			['id', 'int32'],
			['score', 'double'],
			['note', 'optional string'],
			['items', 'repeated Item'],
			['meta', 'google.protobuf.Struct']
		]);
	});
});

describe('codec', () => {
	it('turns a request into procedure input: wrappers opened, absent means what the schema says', () => {
		expect(
			decodeInput(model, 'UpdateThingRequest', {
				thingId: 3,
				threshold: {},
				items: { values: [{ key: 'k', value: 'v' }] }
			})
		).toEqual({
			thingId: 3,
			level: null,
			threshold: null,
			tags: [],
			items: [{ key: 'k', value: 'v' }]
		});
		expect(
			decodeInput(model, 'UpdateThingRequest', { threshold: { value: 5 }, items: {}, level: 1 })
		).toEqual({ level: 1, threshold: 5, tags: [], items: [] });
	});

	it('a map in an update: the *Map twin can clear it (and wins), the plain map only sets', () => {
		const decode = (json: Record<string, unknown>) =>
			decodeInput(model, 'UpdateThingRequest', { level: 1, ...json }).notes;
		expect(decode({})).toBeUndefined();
		expect(decode({ notes_map: {} })).toEqual({});
		expect(decode({ notes_map: { values: { a: '1' } } })).toEqual({ a: '1' });
		expect(decode({ notes: { b: '2' } })).toEqual({ b: '2' });
		expect(decode({ notes: { b: '2' }, notes_map: {} })).toEqual({});
	});

	it('turns procedure output into message JSON: nulls and unknown keys left out', () => {
		expect(
			encodeOutput(model, 'UpdateThingResponse', {
				id: 1,
				score: 0.5,
				note: null,
				items: [{ key: 'k', value: 'v', secret: 'x' }],
				meta: { a: null, at: new Date(0), gone: undefined },
				internal: true
			})
		).toEqual({
			id: 1,
			score: 0.5,
			items: [{ key: 'k', value: 'v' }],
			meta: { a: null, at: '1970-01-01T00:00:00.000Z' }
		});
	});
});
