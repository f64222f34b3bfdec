import { decode, encode, ExtensionCodec } from '@msgpack/msgpack';

// Terraform's DynamicValue: a cty value in msgpack (objects are maps keyed by attribute name,
// null is nil, an unknown is extension 0; a refined unknown, extension 12, carries hints such
// as "not null" or a string prefix, which this provider does not need). JSON only comes in
// stored state (UpgradeResourceState) and cannot hold unknowns.
export const UNKNOWN: unique symbol = Symbol('unknown');
export type Unknown = typeof UNKNOWN;
export type Value = null | string | number | boolean | Unknown | Value[] | { [key: string]: Value };

const codec = new ExtensionCodec();
codec.register({
	type: 0,
	encode: (v) => (v === UNKNOWN ? new Uint8Array([0]) : null),
	decode: () => UNKNOWN
});
codec.register({ type: 12, encode: () => null, decode: () => UNKNOWN });

export type DynamicValue = { msgpack?: Uint8Array | Buffer; json?: Uint8Array | Buffer };

export function decodeValue(dv: DynamicValue | null | undefined): Value {
	if (dv?.msgpack && dv.msgpack.length > 0)
		return normalize(decode(dv.msgpack, { extensionCodec: codec }));
	if (dv?.json && dv.json.length > 0) return JSON.parse(Buffer.from(dv.json).toString('utf8'));
	return null;
}

// msgpack maps decode as plain objects, numbers as number or bigint: one shape for the rest.
function normalize(v: unknown): Value {
	if (v === UNKNOWN || v === null || v === undefined) return (v ?? null) as Value;
	if (typeof v === 'bigint') return Number(v);
	if (Array.isArray(v)) return v.map(normalize);
	if (v instanceof Map)
		return Object.fromEntries([...v].map(([k, x]) => [String(k), normalize(x)]));
	if (typeof v === 'object')
		return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x)]));
	return v as Value;
}

export function encodeValue(v: Value): { msgpack: Uint8Array } {
	return { msgpack: encode(v, { extensionCodec: codec, ignoreUndefined: false }) };
}

export const isUnknown = (v: unknown): v is Unknown => v === UNKNOWN;

// True when a value holds an unknown anywhere inside.
export function hasUnknown(v: Value): boolean {
	if (v === UNKNOWN) return true;
	if (Array.isArray(v)) return v.some(hasUnknown);
	if (v && typeof v === 'object') return Object.values(v).some(hasUnknown);
	return false;
}
