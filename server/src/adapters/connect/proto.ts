import { z } from 'zod';
import type { Meta } from '../../router/trpc.ts';
import { listProcedures, type ProcedureInfo } from '../procedures.ts';

// The /rpc contract as data, derived from the router: one service per entity, one RPC per
// procedure, one message per zod schema. `npm run gen:proto` prints it as .proto files; the
// adapter uses the same model at run time to turn messages into procedure input and back.
// The rules are in proto/README.md.

export const PROTO_PACKAGE = 'upstate.v1';

type JsonSchema = {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean | JsonSchema;
	items?: JsonSchema;
	anyOf?: JsonSchema[];
	oneOf?: JsonSchema[];
	enum?: unknown[];
	const?: unknown;
	default?: unknown;
	format?: string;
};

// How a field travels. `wrapper` marks the cases where "not sent" and "empty/null" mean
// different things in an input (updates): a Nullable* message (`{}` is null), a *List
// message (present means "replace with these", even when empty) and a *Map message (the same
// for a map; it rides beside the plain map field, which shipped first: see `mapField`).
export type ProtoField = {
	key: string; // the zod key, also the field's json_name unless `json` says otherwise
	json?: string; // json_name when it is not the zod key (a *Map twin: `metadata_map`)
	name: string; // lower_snake_case proto name
	label: '' | 'optional' | 'repeated';
	type: string; // scalar, message name or `map<string, T>`
	message?: string; // set when `type` (or the map value) is one of our messages
	wrapper?: 'nullable' | 'list' | 'map';
	deprecated?: boolean;
	nullIfAbsent?: boolean; // required-and-nullable input: not sending it means null
	emptyIfAbsent?: boolean; // required list input: not sending it means empty
	dynamic?: boolean; // google.protobuf.Value / Struct: JSON as is
	comment?: string;
};
export type ProtoMessage = { name: string; fields: ProtoField[]; services: Set<string> };
export type ProtoRpc = {
	method: string;
	procedure: ProcedureInfo;
	request: string;
	response: string;
	idempotent: boolean;
};
export type ProtoService = { entity: string; name: string; file: string; rpcs: ProtoRpc[] };
export type ProtoModel = { services: ProtoService[]; messages: Map<string, ProtoMessage> };

const STANDARD_VERBS: Record<string, (entity: string) => string> = {
	list: (e) => `List${plural(e)}`,
	get: (e) => `Get${e}`,
	create: (e) => `Create${e}`,
	update: (e) => `Update${e}`,
	remove: (e) => `Delete${e}`
};

export function pascal(s: string): string {
	return s
		.split(/[_\-\s.]+/)
		.map((p) => p.charAt(0).toUpperCase() + p.slice(1))
		.join('');
}
export function snake(s: string): string {
	return s
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.replace(/[-\s.]+/g, '_')
		.toLowerCase();
}
function plural(s: string): string {
	if (s.endsWith('s')) return s;
	return /[^aeiou]y$/.test(s) ? `${s.slice(0, -1)}ies` : `${s}s`;
}
function singular(s: string): string {
	if (s.endsWith('ies')) return `${s.slice(0, -3)}y`;
	if (s.endsWith('ses') || s.endsWith('xes')) return s.slice(0, -2);
	return s.endsWith('s') && !s.endsWith('ss') ? s.slice(0, -1) : s;
}
// protoc's default json_name: lower_snake → lowerCamel.
function defaultJsonName(name: string): string {
	return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
export const jsonKey = (field: ProtoField): string => field.json ?? field.key;
export function jsonNameOption(field: ProtoField): string | undefined {
	return defaultJsonName(field.name) === jsonKey(field) ? undefined : jsonKey(field);
}

// Which procedures /rpc answers: every one REST v1 has, plus any with `meta.connect`.
export function isExposed(meta: Meta): boolean {
	return meta.connect !== undefined || meta.rest !== undefined;
}

// Service `upstate.v1.<Entity>Service` from the router key; method from `meta.connect.method`,
// else list/get/create/update/remove → List<Entities>/Get/Create/Update/Delete<Entity>, else
// <Verb><Entity> (resolve → ResolveIncident).
export function rpcNames(proc: ProcedureInfo): { entity: string; service: string; method: string } {
	const [routerKey, verb] = proc.path.split('.');
	const entity = pascal(routerKey);
	const method =
		proc.meta.connect?.method ?? STANDARD_VERBS[verb]?.(entity) ?? pascal(verb) + entity;
	return { entity, service: `${entity}Service`, method };
}

// ---- zod (via JSON Schema) → messages ---------------------------------------------------------

type Shape =
	| { kind: 'scalar'; type: 'string' | 'bool' | 'int32' | 'double'; comment?: string }
	| { kind: 'object'; properties: Record<string, JsonSchema>; required: Set<string> }
	| { kind: 'array'; items: JsonSchema }
	| { kind: 'map'; values: JsonSchema }
	| { kind: 'value' }
	| { kind: 'struct' };

const INT32_MAX = 2 ** 31 - 1;
const ID_LIKE = /(^id$|_id$|Id$|_ids$|Ids$)/;

function describeEnum(s: JsonSchema): string | undefined {
	if (s.enum) return `one of: ${s.enum.map(String).join(', ')}`;
	if (s.const !== undefined) return `always ${JSON.stringify(s.const)}`;
	if (s.format) return s.format;
	return undefined;
}

// Splits null out of a schema; `nullable` says whether null is allowed.
function unwrapNull(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
	if (Array.isArray(s.type)) {
		const rest = s.type.filter((t) => t !== 'null');
		return {
			schema: { ...s, type: rest.length === 1 ? rest[0] : rest },
			nullable: rest.length < s.type.length
		};
	}
	const alts = s.anyOf ?? s.oneOf;
	if (!alts) return { schema: s, nullable: false };
	const rest = alts.filter((a) => a.type !== 'null');
	if (rest.length === alts.length) return { schema: s, nullable: false };
	const { anyOf: _a, oneOf: _o, ...base } = s;
	return {
		schema: rest.length === 1 ? { ...base, ...rest[0] } : { ...base, anyOf: rest },
		nullable: true
	};
}

function shapeOf(s: JsonSchema, key: string, io: 'input' | 'output'): Shape {
	const alts = s.anyOf ?? s.oneOf;
	if (alts) {
		// A union of objects (a discriminated union) is one message with every variant's fields;
		// the procedure's schema still decides which combination is valid.
		if (alts.every((a) => a.type === 'object' && a.properties)) {
			const properties: Record<string, JsonSchema> = {};
			for (const a of alts)
				for (const [name, p] of Object.entries(a.properties ?? {})) {
					// The discriminator: its values across variants (`type`: one of http, tcp, …).
					const seen = properties[name];
					properties[name] =
						seen && seen.const !== undefined && p.const !== undefined
							? { type: 'string', enum: [seen.const, p.const] }
							: seen?.enum && p.const !== undefined
								? { ...seen, enum: [...seen.enum, p.const] }
								: p;
				}
			return { kind: 'object', properties, required: new Set() };
		}
		if (alts.every((a) => a.type === 'string'))
			return {
				kind: 'scalar',
				type: 'string',
				comment: alts.map((a) => describeEnum(a) ?? 'string').join(' | ')
			};
		return { kind: 'value' };
	}
	switch (Array.isArray(s.type) ? 'mixed' : s.type) {
		case 'string':
			return { kind: 'scalar', type: 'string', comment: describeEnum(s) };
		case 'boolean':
			return { kind: 'scalar', type: 'bool', comment: describeEnum(s) };
		case 'integer':
			return { kind: 'scalar', type: 'int32' };
		case 'number':
			// Outputs declare ids as plain numbers; they are Prisma Int (32-bit) columns.
			return { kind: 'scalar', type: io === 'output' && ID_LIKE.test(key) ? 'int32' : 'double' };
		case 'array':
			return s.items ? { kind: 'array', items: s.items } : { kind: 'value' };
		case 'object': {
			const extra = s.additionalProperties;
			if (!s.properties && typeof extra === 'object') {
				const inner = unwrapNull(extra).schema;
				return inner.type === undefined && !inner.anyOf
					? { kind: 'struct' }
					: { kind: 'map', values: extra };
			}
			return { kind: 'object', properties: s.properties ?? {}, required: new Set(s.required) };
		}
		default:
			return { kind: 'value' };
	}
}

function checkInt32(s: JsonSchema & { minimum?: number; maximum?: number }, where: string): void {
	const max = s.maximum ?? 0;
	if (max > INT32_MAX && max !== Number.MAX_SAFE_INTEGER)
		throw new Error(`${where}: integer bound ${max} does not fit int32; use a string or double`);
}

class ModelBuilder {
	messages = new Map<string, ProtoMessage>();
	private signatures = new Map<string, string>();
	private io: 'input' | 'output' = 'input';
	private service = '';
	private entity = '';

	// The fields one zod key becomes (two for a map in an update request, see `mapField`).
	private fieldsOf(name: string, shape: Extract<Shape, { kind: 'object' }>, topLevel: boolean) {
		return Object.entries(shape.properties).flatMap(([key, s]) => {
			const f = this.field(name, key, s, shape.required.has(key));
			return topLevel ? this.mapField(f, key, s, shape.required.has(key)) : [f];
		});
	}

	// A map in a request where "not sent" and "empty" differ (an update's `metadata`): the plain
	// map cannot say "clear" (an empty map is not sent), and changing its type would break
	// clients, so it stays (deprecated) and a `<V>Map` wrapper comes beside it as `<name>_map`:
	// present = replace with these entries, even none. The wrapper wins when both are sent.
	private mapField(f: ProtoField, key: string, raw: JsonSchema, required: boolean): ProtoField[] {
		if (this.io !== 'input' || required || raw.default !== undefined || !f.type.startsWith('map<'))
			return [f];
		const values = f.type.slice('map<string, '.length, -1);
		const wrapper = this.wrapper(`${pascal(values.split('.').pop() ?? '')}Map`, {
			key: 'values',
			name: 'values',
			label: '',
			type: f.type,
			message: f.message
		});
		const name = `${f.name}_map`;
		return [
			{
				...f,
				deprecated: true,
				comment: `use ${name}: an empty map here is not sent, so it cannot clear ${f.name}`
			},
			{ key, json: name, name, label: '', type: wrapper, message: wrapper, wrapper: 'map' }
		];
	}

	build(args: {
		name: string;
		schema: z.ZodType | undefined;
		io: 'input' | 'output';
		service: string;
		entity: string;
	}): void {
		Object.assign(this, { io: args.io, service: args.service, entity: args.entity });
		const json = args.schema
			? (z.toJSONSchema(args.schema, { io: args.io, unrepresentable: 'any' }) as JsonSchema)
			: { type: 'object', properties: {} };
		const shape = shapeOf(unwrapNull(json).schema, '', args.io);
		if (shape.kind !== 'object')
			throw new Error(`${args.name}: the procedure's ${args.io} must be an object`);
		this.define(args.name, shape, true, '');
	}

	// Top-level messages keep their name; nested ones are shared package-wide by structure and
	// named after their field (singular, `Input` added on the request side), prefixed with the
	// parent's name on a clash.
	private define(
		name: string,
		shape: Extract<Shape, { kind: 'object' }>,
		topLevel: boolean,
		parent: string
	): string {
		const fields = this.fieldsOf(name, shape, topLevel && this.io === 'input');
		const signature = JSON.stringify(fields.map(({ comment: _c, ...f }) => f));
		// Request-side messages carry presence on every field, so they are their own `…Input` types.
		if (!topLevel && this.io === 'input') name = `${name}Input`;
		const candidates = topLevel ? [name] : [name, `${parent}${name}`];
		for (const candidate of candidates) {
			const existing = this.messages.get(candidate);
			if (!existing) {
				this.messages.set(candidate, {
					name: candidate,
					fields,
					services: new Set([this.service])
				});
				this.signatures.set(candidate, signature);
				return candidate;
			}
			if (!topLevel && this.signatures.get(candidate) === signature) {
				existing.services.add(this.service);
				return candidate;
			}
		}
		throw new Error(`message ${name} is defined twice with different fields`);
	}

	private field(parent: string, key: string, raw: JsonSchema, required: boolean): ProtoField {
		const where = `${parent}.${key}`;
		const name = snake(key);
		if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`${where}: cannot name a proto field`);
		const { schema, nullable } = unwrapNull(raw);
		const input = this.io === 'input';
		const hasDefault = raw.default !== undefined;
		const absentDiffersFromEmpty = input && !required && !hasDefault;
		const shape = shapeOf(schema, key, this.io);
		const base = { key, name };
		const stem = parent.replace(/(Request|Response)$/, '');
		switch (shape.kind) {
			case 'value':
				return { ...base, label: '', type: 'google.protobuf.Value', dynamic: true };
			case 'struct':
				return { ...base, label: '', type: 'google.protobuf.Struct', dynamic: true };
			case 'map': {
				const values = this.element(stem, pascal(singular(key)), shape.values, where);
				return { ...base, label: '', type: `map<string, ${values.type}>`, message: values.message };
			}
			case 'array': {
				// A list response's `data` items are named after the entity (ListMonitors → Monitor).
				const itemName = key === 'data' ? this.entity : pascal(singular(key));
				const item = this.element(stem, itemName, shape.items, where);
				if (!absentDiffersFromEmpty)
					return {
						...base,
						label: 'repeated',
						type: item.type,
						message: item.message,
						...(input && required && !hasDefault ? { emptyIfAbsent: true } : {})
					};
				const list = this.wrapper(`${pascal(item.type.split('.').pop() ?? '')}List`, {
					key: 'values',
					name: 'values',
					label: 'repeated',
					type: item.type,
					message: item.message
				});
				if (nullable) return this.nullable(base, list, list);
				return { ...base, label: '', type: list, message: list, wrapper: 'list' };
			}
			case 'object': {
				const message = this.define(pascal(key), shape, false, stem);
				if (nullable && absentDiffersFromEmpty) return this.nullable(base, message, message);
				return {
					...base,
					label: '',
					type: message,
					message,
					...this.nullIfAbsent(nullable, required, hasDefault)
				};
			}
			case 'scalar': {
				if (shape.type === 'int32') checkInt32(schema, where);
				const comment = shape.comment ? { comment: shape.comment } : {};
				if (nullable && absentDiffersFromEmpty)
					return { ...this.nullable(base, shape.type, undefined), ...comment };
				// Inputs: every scalar carries presence, so the procedure sees exactly what was sent.
				// Outputs: a value that may be absent or null is left out when it is.
				const optional = input || nullable || !required;
				return {
					...base,
					label: optional ? 'optional' : '',
					type: shape.type,
					...this.nullIfAbsent(nullable, required, hasDefault),
					...comment
				};
			}
		}
	}

	private nullIfAbsent(nullable: boolean, required: boolean, hasDefault: boolean) {
		return this.io === 'input' && nullable && required && !hasDefault ? { nullIfAbsent: true } : {};
	}

	private nullable(
		base: { key: string; name: string },
		type: string,
		message?: string
	): ProtoField {
		const wrapper = this.wrapper(`Nullable${pascal(type)}`, {
			key: 'value',
			name: 'value',
			label: message ? '' : 'optional',
			type,
			message
		});
		return { ...base, label: '', type: wrapper, message: wrapper, wrapper: 'nullable' };
	}

	// A list item or map value: a scalar, or one of our messages.
	private element(
		stem: string,
		name: string,
		raw: JsonSchema,
		where: string
	): { type: string; message?: string } {
		const { schema, nullable } = unwrapNull(raw);
		if (nullable) throw new Error(`${where}: null list items are not supported`);
		const shape = shapeOf(schema, name, this.io);
		if (shape.kind === 'scalar') return { type: shape.type };
		if (shape.kind === 'object') {
			const message = this.define(name, shape, false, stem);
			return { type: message, message };
		}
		if (shape.kind === 'value') return { type: 'google.protobuf.Value' };
		if (shape.kind === 'struct') return { type: 'google.protobuf.Struct' };
		throw new Error(`${where}: lists of lists and maps of lists are not supported`);
	}

	private wrapper(name: string, field: ProtoField): string {
		const existing = this.messages.get(name);
		if (existing) existing.services.add(this.service);
		else this.messages.set(name, { name, fields: [field], services: new Set([this.service]) });
		return name;
	}
}

let cached: ProtoModel | undefined;

// The router's model, built once per process.
export function buildProtoModel(): ProtoModel {
	cached ??= modelOf(listProcedures());
	return cached;
}

export function modelOf(procedures: ProcedureInfo[]): ProtoModel {
	const builder = new ModelBuilder();
	const services = new Map<string, ProtoService>();
	const seen = new Set<string>();
	for (const procedure of procedures) {
		if (!isExposed(procedure.meta)) continue;
		const { entity, service, method } = rpcNames(procedure);
		if (!/^[A-Z][A-Za-z0-9]*$/.test(method))
			throw new Error(`${procedure.path}: RPC name ${method} must be PascalCase`);
		if (seen.has(`${service}/${method}`))
			throw new Error(`${procedure.path}: ${service}/${method} is already taken`);
		seen.add(`${service}/${method}`);
		const entry = services.get(service) ?? {
			entity,
			name: service,
			file: `upstate/v1/${snake(entity)}.proto`,
			rpcs: []
		};
		services.set(service, entry);
		builder.build({
			name: `${method}Request`,
			schema: procedure.input,
			io: 'input',
			service,
			entity
		});
		builder.build({
			name: `${method}Response`,
			schema: procedure.output,
			io: 'output',
			service,
			entity
		});
		entry.rpcs.push({
			method,
			procedure,
			request: `${method}Request`,
			response: `${method}Response`,
			idempotent: procedure.type === 'query'
		});
	}
	return { services: [...services.values()], messages: builder.messages };
}
