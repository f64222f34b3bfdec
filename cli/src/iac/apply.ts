import type { Api } from '../api.ts';
import { ApiError } from '../errors.ts';
import { KINDS, type Fields } from './kinds.ts';
import { writeLock, type LockFile } from './lock.ts';
import { planKind, readState, Refs, type Change } from './plan.ts';
import { KIND_ORDER, type Kind, type UpstateFile } from './schema.ts';

export type Applied = { change: Change; id: number };
export type ApplyResult = { created: number; updated: number; replaced: number; deleted: number };

// Applies kind by kind in dependency order (monitors, pages, groups, components, channels,
// maintenance), reading each kind fresh so ids created a step earlier are known; deletes run
// last, dependants first. The lock is written after every change.
export async function apply(args: {
	api: Api;
	config: UpstateFile;
	lock: LockFile;
	lockFile: string;
	prune: boolean;
	onChange: (applied: Applied) => void;
}): Promise<ApplyResult> {
	const { api, config, lock, lockFile } = args;
	const refs = new Refs(lock);
	const result: ApplyResult = { created: 0, updated: 0, replaced: 0, deleted: 0 };
	const record = (kind: Kind, key: string, id: number | undefined) => {
		if (id === undefined) delete lock.resources[kind][key];
		else lock.resources[kind][key] = id;
		writeLock(lockFile, lock);
	};
	for (const kind of KIND_ORDER) {
		const def = KINDS[kind];
		const state = await readState(api, [kind]);
		const { changes, matched } = planKind(kind, config, refs, state, false);
		for (const [key, id] of matched) if (lock.resources[kind][key] !== id) record(kind, key, id);
		for (const change of changes) {
			if (change.action === 'create') {
				const created = await def.create(api, change.input);
				record(kind, change.key, created.id);
				result.created++;
				args.onChange({ change, id: created.id });
			} else if (change.action === 'update') {
				await def.update(api, change.id, changedFields(change.fields));
				result.updated++;
				args.onChange({ change, id: change.id });
			} else if (change.action === 'replace') {
				await removeIfExists(def.remove(api, change.id));
				record(kind, change.key, undefined);
				const input = def.toInput((config[kind] as Record<string, Fields>)[change.key], refs.ref);
				const created = await def.create(api, input);
				record(kind, change.key, created.id);
				result.replaced++;
				args.onChange({ change, id: created.id });
			}
		}
	}
	if (args.prune)
		for (const kind of [...KIND_ORDER].reverse()) {
			const state = await readState(api, [kind]);
			for (const change of planKind(kind, config, refs, state, true).changes) {
				if (change.action !== 'delete') continue;
				await removeIfExists(KINDS[kind].remove(api, change.id));
				if (change.key !== null) record(kind, change.key, undefined);
				result.deleted++;
				args.onChange({ change, id: change.id });
			}
		}
	return result;
}

const changedFields = (fields: { field: string; to: unknown }[]) =>
	Object.fromEntries(fields.map((f) => [f.field, f.to]));

// A page's deletion takes its components and groups with it: those are already gone.
async function removeIfExists(call: Promise<unknown>): Promise<void> {
	try {
		await call;
	} catch (err) {
		if (!(err instanceof ApiError && err.code === 'NOT_FOUND')) throw err;
	}
}
