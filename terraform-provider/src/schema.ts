import type { Value } from './codec.ts';

// A provider schema in the shape this provider reasons about; `toProto` turns it into
// tfplugin6.Schema. Types are cty types as JSON ("string", ["list","string"], ...).
export type CtyType = string | [string, ...unknown[]];
export type Attr = {
	name: string;
	description: string;
	type?: CtyType;
	nested?: { nesting: 'SINGLE' | 'LIST'; attributes: Attr[] };
	required?: boolean;
	optional?: boolean;
	computed?: boolean;
	sensitive?: boolean;
};
export type Block = { description: string; attributes: Attr[] };

const toProtoAttr = (a: Attr): Record<string, unknown> => ({
	name: a.name,
	description: a.description,
	required: !!a.required,
	optional: !!a.optional,
	computed: !!a.computed,
	sensitive: !!a.sensitive,
	...(a.nested
		? {
				nested_type: { nesting: a.nested.nesting, attributes: a.nested.attributes.map(toProtoAttr) }
			}
		: { type: Buffer.from(JSON.stringify(a.type)) })
});

export const toProto = (b: Block) => ({
	version: 0,
	block: { description: b.description, attributes: b.attributes.map(toProtoAttr) }
});

export const obj = (fields: Record<string, CtyType>): CtyType => ['object', fields];
export const listOf = (t: CtyType): CtyType => ['list', t];
export const setOf = (t: CtyType): CtyType => ['set', t];
export const mapOf = (t: CtyType): CtyType => ['map', t];

// Terraform wants every attribute of an object present (null when absent).
export function complete(attrs: Attr[], v: Record<string, Value> | null): Record<string, Value> {
	const out: Record<string, Value> = {};
	for (const a of attrs) out[a.name] = v?.[a.name] ?? null;
	return out;
}
