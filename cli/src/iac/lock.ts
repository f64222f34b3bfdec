import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CliError } from '../errors.ts';
import { KIND_ORDER, type Kind } from './schema.ts';

// The lock file next to `upstate.yaml` (`upstate.lock.json`) maps each stable key to the id it
// was applied as, per kind, so a renamed monitor is updated rather than replaced. It also names
// the workspace, so a file applied with another workspace's key never touches that workspace's
// ids.
const Ids = z.record(z.string(), z.number().int().positive());
export const LockFile = z.object({
	version: z.literal(1),
	workspace: z.object({ id: z.number(), slug: z.string() }),
	resources: z.object(
		Object.fromEntries(KIND_ORDER.map((k) => [k, Ids.default({})])) as Record<
			Kind,
			z.ZodDefault<typeof Ids>
		>
	)
});
export type LockFile = z.infer<typeof LockFile>;

export function lockPathFor(file: string): string {
	const { dir, name } = path.parse(file);
	return path.join(dir, `${name}.lock.json`);
}

export const emptyLock = (workspace: { id: number; slug: string }): LockFile => ({
	version: 1,
	workspace,
	resources: Object.fromEntries(KIND_ORDER.map((k) => [k, {}])) as LockFile['resources']
});

export function readLock(file: string, workspace: { id: number; slug: string }): LockFile {
	let raw: string;
	try {
		raw = readFileSync(file, 'utf8');
	} catch {
		return emptyLock(workspace);
	}
	const parsed = LockFile.safeParse(JSON.parse(raw));
	if (!parsed.success)
		throw new CliError(`${file} is not an upstate lock file`, {
			hint: `restore it from version control, or delete it to match resources anew (existing ones may then be created twice)`
		});
	if (parsed.data.workspace.id !== workspace.id)
		throw new CliError(
			`${file} belongs to workspace ${parsed.data.workspace.slug} (${parsed.data.workspace.id}), but the key is for ${workspace.slug} (${workspace.id})`,
			{
				hint: `use a key of workspace ${parsed.data.workspace.slug}, or to copy this file into ${workspace.slug}, apply it with another lock file (--lock new.lock.json)`
			}
		);
	return parsed.data;
}

// Written whole and renamed into place after every change, so an apply that stops halfway
// leaves a lock that matches what exists.
export function writeLock(file: string, lock: LockFile): void {
	const sorted: LockFile = {
		...lock,
		resources: Object.fromEntries(
			KIND_ORDER.map((k) => [
				k,
				Object.fromEntries(Object.entries(lock.resources[k]).sort(([a], [b]) => a.localeCompare(b)))
			])
		) as LockFile['resources']
	};
	const tmp = `${file}.${process.pid}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(sorted, null, '\t')}\n`);
	renameSync(tmp, file);
}
