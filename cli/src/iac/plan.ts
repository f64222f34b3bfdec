import type { Api } from '../api.ts';
import { KINDS, type Fields, type Ref, type Resource } from './kinds.ts';
import type { LockFile } from './lock.ts';
import { KIND_ORDER, type Kind, type UpstateFile } from './schema.ts';

export type FieldChange = { field: string; from: unknown; to: unknown };
export type Change =
	| { action: 'create'; kind: Kind; key: string; input: Fields }
	| { action: 'update'; kind: Kind; key: string; id: number; fields: FieldChange[] }
	| { action: 'replace'; kind: Kind; key: string; id: number; fields: FieldChange[] }
	| { action: 'delete'; kind: Kind; key: string | null; id: number; label: string };

export type State = Record<Kind, Resource[]>;

export async function readState(api: Api, kinds: readonly Kind[] = KIND_ORDER): Promise<State> {
	const pages = await KINDS.status_pages.list(api, []);
	const state = {} as State;
	await Promise.all(
		kinds.map(async (k) => {
			state[k] = k === 'status_pages' ? pages : await KINDS[k].list(api, pages);
		})
	);
	return state;
}

// Ids of resources this run has yet to create: a stand-in that the plan shows as
// "(new monitors.api)" and apply replaces with the real id before the dependant is sent.
const PENDING_BASE = 2 ** 52;
export class Refs {
	readonly lock: LockFile;
	readonly pending: string[] = [];
	constructor(lock: LockFile) {
		this.lock = lock;
	}
	ref: Ref = (kind, key) => {
		const id = this.lock.resources[kind][key];
		if (id !== undefined) return id;
		const label = `${kind}.${key}`;
		const at = this.pending.indexOf(label);
		return PENDING_BASE + (at >= 0 ? at : this.pending.push(label) - 1);
	};
	show(value: unknown): unknown {
		if (typeof value === 'number' && value >= PENDING_BASE)
			return `(new ${this.pending[value - PENDING_BASE]})`;
		if (Array.isArray(value)) return value.map((v) => this.show(v));
		if (value && typeof value === 'object')
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.show(v)]));
		return value;
	}
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

// The field-by-field difference between an entry and the resource it is matched with.
export function diffFields(kind: Kind, desired: Fields, resource: Resource): FieldChange[] {
	const def = KINDS[kind];
	const current = def.current(resource);
	return Object.entries(desired)
		.filter(([field, value]) => value !== undefined && !def.createOnly.includes(field))
		.filter(([field, value]) => {
			const equal = def.equal?.[field];
			return equal
				? !equal(value, current[field], resource, desired)
				: !same(value, current[field]);
		})
		.map(([field, to]) => ({ field, from: current[field], to }));
}

// Which resource an entry is: the lock's id if it still exists; for a page, the one with its
// slug (slugs are unique, so creating it again could only fail).
function match(
	kind: Kind,
	key: string,
	input: Fields,
	lock: LockFile,
	state: State
): Resource | undefined {
	const id = lock.resources[kind][key];
	const byId = id === undefined ? undefined : state[kind].find((r) => r.id === id);
	if (byId || kind !== 'status_pages') return byId;
	const claimed = new Set(Object.values(lock.resources.status_pages));
	return state.status_pages.find((r) => r.slug === input.slug && !claimed.has(r.id));
}

export type KindPlan = { changes: Change[]; matched: Map<string, number> };

export function planKind(
	kind: Kind,
	config: UpstateFile,
	refs: Refs,
	state: State,
	prune: boolean
): KindPlan {
	const def = KINDS[kind];
	const changes: Change[] = [];
	const matched = new Map<string, number>();
	for (const [key, entry] of Object.entries(config[kind] as Record<string, Fields>)) {
		const input = def.toInput(entry, refs.ref);
		const resource = match(kind, key, input, refs.lock, state);
		if (!resource) {
			changes.push({ action: 'create', kind, key, input });
			continue;
		}
		matched.set(key, resource.id);
		const desired = def.schema.parse(input) as Fields;
		const fields = diffFields(kind, desired, resource).map((c) => ({ ...c, to: refs.show(c.to) }));
		if (fields.some((f) => def.replaceOn.includes(f.field)))
			changes.push({ action: 'replace', kind, key, id: resource.id, fields });
		else if (fields.length > 0)
			changes.push({ action: 'update', kind, key, id: resource.id, fields });
	}
	if (prune) {
		const kept = new Set(matched.values());
		const keyOf = new Map(Object.entries(refs.lock.resources[kind]).map(([k, id]) => [id, k]));
		for (const r of state[kind])
			if (!kept.has(r.id))
				changes.push({
					action: 'delete',
					kind,
					key: keyOf.get(r.id) ?? null,
					id: r.id,
					label: def.label(r)
				});
	}
	return { changes, matched };
}

export type Plan = { changes: Change[]; unmanaged: number };

export function plan(config: UpstateFile, lock: LockFile, state: State, prune: boolean): Plan {
	const refs = new Refs(structuredClone(lock));
	const changes: Change[] = [];
	let unmanaged = 0;
	for (const kind of KIND_ORDER) {
		const result = planKind(kind, config, refs, state, prune);
		// Matches found by slug become known ids for the entries after them.
		for (const [key, id] of result.matched) refs.lock.resources[kind][key] = id;
		for (const c of result.changes)
			if (c.action === 'create') changes.push({ ...c, input: refs.show(c.input) as Fields });
			else if (c.action !== 'delete') changes.push(c);
		if (!prune) unmanaged += state[kind].length - result.matched.size;
	}
	// Deletes go last and dependants first: a component before its group and page.
	if (prune)
		for (const kind of [...KIND_ORDER].reverse())
			changes.push(
				...planKind(kind, config, refs, state, true).changes.filter((c) => c.action === 'delete')
			);
	return { changes, unmanaged };
}
