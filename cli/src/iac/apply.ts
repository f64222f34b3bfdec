import pLimit from 'p-limit';
import type { Api } from '../api.ts';
import { ApiError } from '../errors.ts';
import { KINDS, type Fields } from './kinds.ts';
import { writeLock, type LockFile } from './lock.ts';
import { planKind, readState, Refs, type Change } from './plan.ts';
import { KIND_ORDER, type Kind, type UpstateFile } from './schema.ts';

export const APPLY_CONCURRENCY = 4;

export type Applied = { change: Change; id: number };
export type ApplyResult = { created: number; updated: number; replaced: number; deleted: number };

// Applies kind by kind in dependency order (monitors, pages, groups, components, channels,
// maintenance), a few calls at a time within a kind, reading each kind fresh so ids created a step earlier are known; deletes run
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
	// Within a kind nothing depends on anything else: a few calls run at once.
	const limit = pLimit(APPLY_CONCURRENCY);
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
		await settleAll(
			changes.map((change) =>
				limit(async () => {
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
						const entry = (config[kind] as Record<string, Fields>)[change.key];
						const created = await def.create(api, def.toInput(entry, refs.ref));
						record(kind, change.key, created.id);
						result.replaced++;
						args.onChange({ change, id: created.id });
					}
				})
			)
		);
	}
	if (args.prune)
		for (const kind of [...KIND_ORDER].reverse()) {
			const state = await readState(api, [kind]);
			const deletes = planKind(kind, config, refs, state, true).changes;
			await settleAll(
				deletes.map((change) =>
					limit(async () => {
						if (change.action !== 'delete') return;
						await removeIfExists(KINDS[kind].remove(api, change.id));
						if (change.key !== null) record(kind, change.key, undefined);
						result.deleted++;
						args.onChange({ change, id: change.id });
					})
				)
			);
		}
	return result;
}

// Every call started is let finish (and recorded in the lock) before the first error is thrown.
async function settleAll(calls: Promise<void>[]): Promise<void> {
	const failed = (await Promise.allSettled(calls)).find((r) => r.status === 'rejected');
	if (failed) throw failed.reason;
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
