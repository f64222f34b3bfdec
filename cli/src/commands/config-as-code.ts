import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Ctx } from '../context.ts';
import { CliError, EXIT } from '../errors.ts';
import { printJson } from '../io.ts';
import type { Register } from '../program.ts';
import { apply } from '../iac/apply.ts';
import { exportState } from '../iac/export.ts';
import { loadUpstateFile } from '../iac/load.ts';
import { lockPathFor, readLock, writeLock } from '../iac/lock.ts';
import { plan, readState, type Change } from '../iac/plan.ts';
import { fileJsonSchema } from '../iac/schema.ts';
import { KINDS } from '../iac/kinds.ts';

type FileFlags = {
	file: string;
	lock?: string;
	prune?: boolean;
	exitCode?: boolean;
	force?: boolean;
};

const fileOptions = (cmd: Command) =>
	cmd
		.option('-f, --file <path>', 'the config file', 'upstate.yaml')
		.option('--lock <path>', 'the lock file (default: <file>.lock.json next to it)');

const show = (v: unknown) =>
	typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v ?? null);

// Terraform's notation, which most readers of a plan already know.
function describe(ctx: Ctx, change: Change): string {
	const c = ctx.out.color;
	const name =
		change.action === 'delete' && change.key === null
			? `${change.kind} #${change.id}`
			: `${change.kind}.${change.key}`;
	switch (change.action) {
		case 'create': {
			const label = change.input.name ?? change.input.title;
			const what = `create ${KINDS[change.kind].noun}${label ? ` "${label}"` : ''}`;
			return `${c.green('+')} ${name} ${c.dim(what)}`;
		}
		case 'delete':
			return `${c.red('-')} ${name} ${c.dim(`delete ${KINDS[change.kind].noun} "${change.label}" (id ${change.id})`)}`;
		case 'update':
		case 'replace': {
			const head =
				change.action === 'update'
					? `${c.yellow('~')} ${name} ${c.dim(`update (id ${change.id})`)}`
					: `${c.red('-')}${c.green('+')} ${name} ${c.dim(
							`replace (id ${change.id}): ${change.fields
								.filter((f) => KINDS[change.kind].replaceOn.includes(f.field))
								.map((f) => f.field)
								.join(', ')} cannot change in place`
						)}`;
			return [
				head,
				...change.fields.map(
					(f) => `    ${f.field}: ${c.red(show(f.from))} → ${c.green(show(f.to))}`
				)
			].join('\n');
		}
	}
}

function summary(changes: Change[]): string {
	const n = (a: Change['action']) => changes.filter((c) => c.action === a).length;
	return `${n('create')} to create, ${n('update')} to update, ${n('replace')} to replace, ${n('delete')} to delete`;
}

async function prepare(ctx: Ctx, f: FileFlags) {
	const { config, file } = loadUpstateFile(f.file, ctx.rawEnv);
	const api = ctx.api();
	const { workspace: me } = await api.call('workspace.whoami', undefined);
	const lockFile = f.lock ?? lockPathFor(file);
	const lock = readLock(lockFile, { id: me.id, slug: me.slug });
	return { api, config, lock, lockFile, workspace: me };
}

export const registerConfigAsCode: Register = (program, wrap) => {
	fileOptions(program.command('plan'))
		.description('show what apply would change: create, update field by field, delete')
		.option('--prune', 'also delete what the file does not name')
		.option('--exit-code', 'exit 3 when there are changes (drift), 0 when none')
		.action(
			wrap(async (ctx, f: FileFlags) => {
				const { api, config, lock } = await prepare(ctx, f);
				const result = plan(config, lock, await readState(api), !!f.prune);
				if (ctx.out.json) printJson(ctx.out, result);
				else if (!ctx.out.quiet) {
					for (const change of result.changes) ctx.streams.stdout(`${describe(ctx, change)}\n`);
					ctx.streams.stdout(
						result.changes.length === 0
							? `No changes: the workspace matches ${f.file}.\n`
							: `\nPlan: ${summary(result.changes)}. Run \`upstate apply -f ${f.file}${f.prune ? ' --prune' : ''}\` to make them.\n`
					);
					if (result.unmanaged > 0)
						ctx.streams.stdout(
							ctx.out.color.dim(
								`${result.unmanaged} resource(s) in the workspace are not in the file (kept; --prune deletes them).\n`
							)
						);
				}
				return f.exitCode && result.changes.length > 0 ? EXIT.drift : EXIT.ok;
			})
		);

	fileOptions(program.command('apply'))
		.description('make the workspace match the file, in dependency order')
		.option('--prune', 'also delete what the file does not name')
		.action(
			wrap(async (ctx, f: FileFlags) => {
				const { api, config, lock, lockFile } = await prepare(ctx, f);
				const planned = plan(config, lock, await readState(api), !!f.prune);
				const total = planned.changes.length;
				let n = 0;
				const result = await apply({
					api,
					config,
					lock,
					lockFile,
					prune: !!f.prune,
					onChange: ({ change, id }) => {
						n++;
						if (!ctx.out.quiet && !ctx.out.json)
							ctx.streams.stderr(
								`[${n}/${Math.max(total, n)}] ${describe(ctx, change).split('\n')[0]}${change.action === 'create' ? ctx.out.color.dim(` → id ${id}`) : ''}\n`
							);
					}
				});
				if (ctx.out.json) printJson(ctx.out, { ...result, lock: lockFile });
				else if (!ctx.out.quiet)
					ctx.streams.stdout(
						n === 0
							? `No changes: the workspace matches ${f.file}.\n`
							: `Applied: ${result.created} created, ${result.updated} updated, ${result.replaced} replaced, ${result.deleted} deleted. Lock: ${lockFile}\n`
					);
			})
		);

	fileOptions(program.command('export'))
		.description('write the workspace as a config file (and its lock) to start from')
		.option('--force', 'overwrite an existing file')
		.action(
			wrap(async (ctx, f: FileFlags) => {
				const toStdout = f.file === '-';
				if (!toStdout && existsSync(f.file) && !f.force)
					throw new CliError(`${f.file} exists`, {
						hint: 'pass --force to overwrite it, or -f another path (-f - prints it)'
					});
				const api = ctx.api();
				const { workspace: me } = await api.call('workspace.whoami', undefined);
				const lockFile = f.lock ?? lockPathFor(toStdout ? 'upstate.yaml' : f.file);
				const previous = existsSync(lockFile)
					? readLock(lockFile, { id: me.id, slug: me.slug })
					: null;
				const schemaFile = toStdout
					? 'upstate.schema.json'
					: path.join(path.dirname(f.file), 'upstate.schema.json');
				const exported = exportState({
					state: await readState(api),
					workspace: { id: me.id, slug: me.slug },
					previous,
					schemaRef: './upstate.schema.json'
				});
				if (toStdout) return void ctx.streams.stdout(exported.yaml);
				writeFileSync(f.file, exported.yaml);
				writeFileSync(schemaFile, `${JSON.stringify(fileJsonSchema(), null, '\t')}\n`);
				writeLock(lockFile, exported.lock);
				if (ctx.out.json)
					printJson(ctx.out, {
						file: f.file,
						lock: lockFile,
						schema: schemaFile,
						secrets: exported.secrets
					});
				else if (!ctx.out.quiet) {
					ctx.streams.stdout(`Wrote ${f.file}, ${lockFile} and ${schemaFile}.\n`);
					if (exported.secrets.length)
						ctx.streams.stdout(
							`Secrets are not exported; set these before \`upstate apply\`: ${exported.secrets.join(', ')}\n`
						);
				}
			})
		);

	program
		.command('schema')
		.description('print the JSON Schema of upstate.yaml (for editors)')
		.action(wrap(async (ctx) => printJson(ctx.out, fileJsonSchema())));
};
