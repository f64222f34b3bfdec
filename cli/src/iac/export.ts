import { Document } from 'yaml';
import type { Fields } from './kinds.ts';
import { KINDS, type KeyOf, type Resource } from './kinds.ts';
import { emptyLock, type LockFile } from './lock.ts';
import type { State } from './plan.ts';
import { ENTRY, KIND_ORDER, type Kind } from './schema.ts';

// A key from a name: lowercase words joined by dashes, numbered when two resources share one.
function keyFrom(name: string, taken: Set<string>): string {
	const base =
		name
			.toLowerCase()
			.normalize('NFKD')
			.replace(/[^a-z0-9]+/g, '-')
			.replace(/^-+|-+$/g, '')
			.slice(0, 60) || 'item';
	let key = base;
	for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
	taken.add(key);
	return key;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// Fields equal to what the server would fill in are left out, so the file says only what was
// chosen (the server's own defaults decide; an entry that does not parse is kept whole).
function withoutDefaults(kind: Kind, entry: Fields): Fields {
	const schema = ENTRY[kind];
	const full = schema.safeParse(entry);
	if (!full.success) return entry;
	const out = { ...entry };
	for (const field of Object.keys(entry)) {
		const { [field]: _, ...rest } = out;
		const parsed = schema.safeParse(rest);
		if (parsed.success && same((parsed.data as Fields)[field], (full.data as Fields)[field]))
			delete out[field];
	}
	return out;
}

export type Exported = { yaml: string; lock: LockFile; secrets: string[] };

export function exportState(args: {
	state: State;
	workspace: { id: number; slug: string };
	previous: LockFile | null;
	schemaRef: string;
}): Exported {
	const lock = emptyLock(args.workspace);
	// Keys already in the lock are kept, so exporting again does not rename entries.
	const known = new Map<string, string>();
	for (const kind of KIND_ORDER)
		for (const [key, id] of Object.entries(args.previous?.resources[kind] ?? {}))
			known.set(`${kind}:${id}`, key);
	for (const kind of KIND_ORDER) {
		const taken = new Set<string>();
		const sorted = [...args.state[kind]].sort((a, b) => a.id - b.id);
		for (const r of sorted) {
			const key = known.get(`${kind}:${r.id}`);
			if (key && !taken.has(key)) {
				taken.add(key);
				lock.resources[kind][key] = r.id;
			}
		}
		for (const r of sorted)
			if (!Object.values(lock.resources[kind]).includes(r.id))
				lock.resources[kind][keyFrom(nameOf(kind, r), taken)] = r.id;
	}
	const keyOf: KeyOf = (kind, id) =>
		Object.entries(lock.resources[kind]).find(([, v]) => v === id)?.[0];
	const body: Record<string, unknown> = { version: 1 };
	const secrets: string[] = [];
	for (const kind of KIND_ORDER) {
		const section: Record<string, Fields> = {};
		for (const [key, id] of Object.entries(lock.resources[kind])) {
			const r = args.state[kind].find((x) => x.id === id) as Resource;
			const entry = withoutDefaults(kind, KINDS[kind].toEntry(r, keyOf));
			secrets.push(...(JSON.stringify(entry).match(/\$\{[A-Z0-9_]+\}/g) ?? []));
			section[key] = entry;
		}
		body[kind] = section;
	}
	const doc = new Document(body);
	doc.commentBefore = ` yaml-language-server: $schema=${args.schemaRef}\n Written by \`upstate export\` for workspace ${args.workspace.slug}. Secrets are \${VARIABLES}\n read from the environment when the file is applied.`;
	return {
		yaml: doc.toString({ lineWidth: 100 }),
		lock,
		secrets: [...new Set(secrets)].map((s) => s.slice(2, -1))
	};
}

const nameOf = (kind: Kind, r: Resource): string =>
	kind === 'status_pages'
		? String(r.slug)
		: String(r.name || r.title || `${KINDS[kind].noun} ${r.id}`);
