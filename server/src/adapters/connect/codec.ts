import { jsonKey, type ProtoField, type ProtoModel } from './proto.ts';

// Messages ↔ procedure input/output, driven by the same model that wrote the .proto files.
// Both sides are the message's proto JSON (toJson / fromJson), whose keys are the zod keys
// (json_name); what is left here is the wrappers and the meaning of "not sent".
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

export function decodeInput(model: ProtoModel, message: string, json: Json): Json {
	const out: Json = {};
	for (const field of model.messages.get(message)?.fields ?? []) {
		const value = json[jsonKey(field)];
		if (value === undefined) {
			if (field.nullIfAbsent) out[field.key] = null;
			else if (field.emptyIfAbsent) out[field.key] = [];
			continue;
		}
		out[field.key] = decodeField(model, field, value);
	}
	return out;
}

function decodeField(model: ProtoModel, field: ProtoField, value: unknown): unknown {
	if (field.dynamic || !field.message) return value;
	if (field.wrapper) {
		const [inner] = model.messages.get(field.message)?.fields ?? [];
		const wrapped = isObject(value) ? value[inner.key] : undefined;
		if (field.wrapper === 'list')
			return wrapped === undefined ? [] : decodeField(model, inner, wrapped);
		if (field.wrapper === 'map')
			return wrapped === undefined ? {} : decodeField(model, inner, wrapped);
		return wrapped === undefined ? null : decodeField(model, inner, wrapped);
	}
	const one = (v: unknown) => (isObject(v) ? decodeInput(model, field.message ?? '', v) : v);
	if (field.label === 'repeated' && Array.isArray(value)) return value.map(one);
	if (field.type.startsWith('map<') && isObject(value))
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)]));
	return one(value);
}

// A procedure result as proto JSON: nulls and absent values are left out (except in free-form
// JSON), keys the message does not have are dropped.
export function encodeOutput(model: ProtoModel, message: string, value: Json): Json {
	const out: Json = {};
	for (const field of model.messages.get(message)?.fields ?? []) {
		const v = value[field.key];
		if (v === undefined || (v === null && !field.dynamic)) continue;
		out[field.key] = encodeField(model, field, v);
	}
	return out;
}

function encodeField(model: ProtoModel, field: ProtoField, value: unknown): unknown {
	// Free-form JSON as JSON would carry it (dates as strings, undefined left out).
	if (field.dynamic) return JSON.parse(JSON.stringify(value)) as unknown;
	if (!field.message) return value;
	const one = (v: unknown) => (isObject(v) ? encodeOutput(model, field.message ?? '', v) : v);
	if (Array.isArray(value)) return value.map(one);
	if (field.type.startsWith('map<') && isObject(value))
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)]));
	return one(value);
}
