import { isDeepStrictEqual } from 'node:util';
import type { ProcedurePath } from '../../cli/src/api.ts';
import { ApiError } from '../../cli/src/errors.ts';
import { UNKNOWN, type Value } from './codec.ts';
import type { Attr, Block } from './schema.ts';

// What every managed resource does, and one plan/state/input rule for the simple ones
// (status pages, components, groups, private locations): the attributes are the /rpc fields
// with their snake_case names; the server validates, nothing here repeats its rules.
export type Row = Record<string, Value>;
export type Api = (path: ProcedurePath, input: unknown) => Promise<Record<string, unknown>>;

// Import failures that are not API errors (a malformed id, an id that is not found).
export class ImportError extends Error {
	readonly summary: string;
	readonly detail: string;
	constructor(summary: string, detail: string) {
		super(summary);
		this.summary = summary;
		this.detail = detail;
	}
}

export type Managed = {
	noun: string; // "status page": in diagnostics
	schema: Block;
	validate?(config: Row): { summary: string; detail: string; attr: string }[];
	plan(prior: Row | null, config: Row): { planned: Row; replace: string[] };
	read(api: Api, state: Row): Promise<Row | null>; // null: deleted outside Terraform
	create(api: Api, planned: Row): Promise<Row>;
	update(api: Api, prior: Row, planned: Row): Promise<Row>;
	remove(api: Api, prior: Row): Promise<void>;
	importState(api: Api, id: string): Promise<Row>;
};

type Spec = {
	attrs: Attr[];
	defaults?: Record<string, (config: Row) => Value>; // server defaults, filled at plan time
	replaceOn?: string[]; // attributes the server cannot change in place
	ids?: string[]; // string ids in Terraform, numbers on the wire
	writeOnly?: string[]; // sensitive inputs the server never returns (a password)
	keep?: string[]; // computed values that stay on an in-place update (a secret shown once)
};

const isSet = (a: Attr) => Array.isArray(a.type) && a.type[0] === 'set';
function same(a: Value, b: Value, set: boolean): boolean {
	if (set && Array.isArray(a) && Array.isArray(b))
		return isDeepStrictEqual([...a].map(String).sort(), [...b].map(String).sort());
	return isDeepStrictEqual(a, b);
}
const configurable = (s: Spec) => s.attrs.filter((a) => a.required || a.optional);

// Configured values as written; optional+computed ones from config, else the server default,
// else the prior value (unknown on create or replace); computed-only ones stay when nothing
// changes (and `id`/`created_at`/`token`/`spec.keep` on any in-place update), unknown otherwise.
export function planWith(spec: Spec) {
	const keep = new Set(['id', 'created_at', 'token', ...(spec.keep ?? [])]);
	return (prior: Row | null, config: Row): { planned: Row; replace: string[] } => {
		const planned: Row = {};
		for (const a of spec.attrs) {
			const c = config[a.name];
			if (!a.computed) planned[a.name] = c;
			else if (a.optional && c !== null) planned[a.name] = c;
			else if (a.optional && spec.defaults?.[a.name])
				planned[a.name] = spec.defaults[a.name](config);
		}
		const replace = prior
			? (spec.replaceOn ?? []).filter((n) => !isDeepStrictEqual(planned[n], prior[n]))
			: [];
		const base = replace.length ? null : prior;
		for (const a of spec.attrs)
			if (a.optional && a.computed && !(a.name in planned))
				planned[a.name] = base ? base[a.name] : UNKNOWN;
		const changed =
			!base || configurable(spec).some((a) => !same(planned[a.name], base[a.name], isSet(a)));
		for (const a of spec.attrs)
			if (a.computed && !a.optional)
				planned[a.name] = base && (!changed || keep.has(a.name)) ? base[a.name] : UNKNOWN;
		return { planned, replace };
	};
}

// A planned value as /rpc input: string ids as numbers, null as "clear" ([] / {} / null).
function wire(spec: Spec, a: Attr, v: Value): unknown {
	if (v === null) {
		if (Array.isArray(a.type) && (a.type[0] === 'list' || a.type[0] === 'set')) return [];
		if (Array.isArray(a.type) && a.type[0] === 'map') return {};
		return null;
	}
	if (spec.ids?.includes(a.name)) return Array.isArray(v) ? v.map(Number) : Number(v);
	return v;
}

// Create: every configured value (null and unknown left to the server).
export function createInputOf(
	spec: Spec,
	planned: Row,
	skip: string[] = []
): Record<string, unknown> {
	const input: Record<string, unknown> = {};
	for (const a of configurable(spec)) {
		const v = planned[a.name];
		if (v === null || v === UNKNOWN || skip.includes(a.name)) continue;
		input[a.name] = wire(spec, a, v);
	}
	return input;
}

// Update: only what changed; a value removed from configuration is cleared.
export function updateInputOf(
	spec: Spec,
	prior: Row,
	planned: Row,
	skip: string[] = []
): Record<string, unknown> {
	const input: Record<string, unknown> = {};
	for (const a of configurable(spec)) {
		const v = planned[a.name];
		if (skip.includes(a.name) || v === UNKNOWN || same(v, prior[a.name], isSet(a))) continue;
		if (v === null && spec.writeOnly?.includes(a.name)) continue;
		input[a.name] = wire(spec, a, v);
	}
	return input;
}

// The server's object as state. `shape` is what Terraform holds (plan, prior state, or null on
// import): an empty list or map it holds as null stays null, so leaving one out of
// configuration never shows as a change; write-only values come from it too.
export function stateOf(spec: Spec, obj: Record<string, unknown>, shape: Row | null): Row {
	const out: Row = {};
	for (const a of spec.attrs) {
		if (spec.writeOnly?.includes(a.name)) {
			out[a.name] = shape?.[a.name] ?? null;
			continue;
		}
		let v = (obj[a.name] ?? null) as Value;
		if (v !== null && (a.name === 'id' || spec.ids?.includes(a.name)))
			v = Array.isArray(v) ? v.map(String) : String(v);
		const empty = Array.isArray(v)
			? v.length === 0
			: v !== null && typeof v === 'object' && Object.keys(v).length === 0;
		if (empty && !a.computed && !shape?.[a.name]) v = null;
		out[a.name] = v;
	}
	return out;
}

// A read that treats NOT_FOUND as "gone".
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
	try {
		return await p;
	} catch (err) {
		if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
		throw err;
	}
}

export function numericId(id: string, noun: string, example: string): number {
	if (!/^\d+$/.test(id))
		throw new ImportError(
			`"${id}" is not a ${noun} id`,
			`Import with the numeric id, e.g. ${example}.`
		);
	return Number(id);
}

// `page_id/child_id` for what only exists under a page.
export function pairId(id: string, noun: string, example: string): [number, number] {
	const m = /^(\d+)\/(\d+)$/.exec(id);
	if (!m)
		throw new ImportError(
			`"${id}" is not a ${noun} import id`,
			`Import with page_id/${noun.replace(/ /g, '_')}_id, e.g. ${example}.`
		);
	return [Number(m[1]), Number(m[2])];
}

export const notFound = (noun: string, id: string, where: string) =>
	new ImportError(
		`${noun[0].toUpperCase()}${noun.slice(1)} ${id} not found`,
		`No ${noun} with this id exists in the workspace of this API token: check the id (${where}).`
	);
