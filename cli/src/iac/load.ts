import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { CliError, EXIT } from '../errors.ts';
import { KINDS, type Fields } from './kinds.ts';
import { KIND_ORDER, UpstateFile, type Kind } from './schema.ts';

// `atKey`: point at the key itself (an unknown field), not at its value.
export type Problem = { path: (string | number)[]; message: string; atKey?: boolean };

// A file's problems, each as `file:line:col path: message`, then what to do.
export class FileError extends CliError {
	constructor(file: string, lines: string[]) {
		super(
			`${file} has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${lines.map((l) => `  ${l}`).join('\n')}`,
			{
				hint: `fix ${lines.length === 1 ? 'it' : 'them'} and run the command again (the JSON Schema in cli/schema/upstate.schema.json gives editors completion)`,
				exitCode: EXIT.error
			}
		);
	}
}

export type LoadedFile = { file: string; config: UpstateFile };

const ENV_REF = /\$\$\{|\$\{([^}]*)\}/g;

// `${NAME}` in any string is read from the environment; `$${` writes a literal `${`.
function interpolate(
	value: unknown,
	env: Record<string, string | undefined>,
	path: (string | number)[],
	problems: Problem[]
): unknown {
	if (typeof value === 'string')
		return value.replace(ENV_REF, (match, name: string | undefined) => {
			if (match === '$${') return '${';
			if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
				problems.push({
					path,
					message: `"${match}" is not a variable reference: write \${NAME} (or $\${ for a literal)`
				});
				return match;
			}
			const v = env[name];
			if (v === undefined || v === '') {
				problems.push({
					path,
					message: `environment variable ${name} is not set: export it before running upstate`
				});
				return match;
			}
			return v;
		});
	if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, [...path, i], problems));
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [k, interpolate(v, env, [...path, k], problems)])
		);
	return value;
}

// Where a path points in the source: the deepest node that exists (a missing field points at
// its parent entry).
function locate(
	doc: Document,
	counter: LineCounter,
	path: (string | number)[],
	atKey = false
): { line: number; col: number } {
	let node: unknown = doc.contents;
	let range: [number, number, number] | undefined = (
		doc.contents as { range?: [number, number, number] } | null
	)?.range;
	for (const key of path) {
		if (isMap(node)) {
			const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
			if (!pair) break;
			node = pair.value;
			const keyRange = (pair.key as { range?: [number, number, number] }).range;
			range =
				atKey && key === path[path.length - 1]
					? keyRange
					: ((pair.value as { range?: [number, number, number] } | null)?.range ?? keyRange);
		} else if (isSeq(node) && typeof key === 'number' && node.items[key]) {
			node = node.items[key];
			range = (node as { range?: [number, number, number] }).range;
		} else break;
	}
	return counter.linePos(range?.[0] ?? 0);
}

const dotted = (path: (string | number)[]) =>
	path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

export function parseUpstateFile(
	file: string,
	source: string,
	env: Record<string, string | undefined>
): LoadedFile {
	const counter = new LineCounter();
	const doc = parseDocument(source, {
		lineCounter: counter,
		prettyErrors: false,
		uniqueKeys: true
	});
	if (doc.errors.length > 0)
		throw new FileError(
			file,
			doc.errors.map((e) => {
				const pos = counter.linePos(e.pos[0]);
				return `${file}:${pos.line}:${pos.col} ${e.message.split('\n')[0]}`;
			})
		);
	const envProblems: Problem[] = [];
	const raw = interpolate(doc.toJS() ?? {}, env, [], envProblems);
	const parsed = UpstateFile.safeParse(raw);
	// A field whose variable is missing is reported once, for the variable.
	const unset = new Set(envProblems.map((p) => dotted(p.path)));
	const problems = [
		...envProblems,
		...(parsed.success
			? [...referenceProblems(parsed.data), ...serverRuleProblems(parsed.data)]
			: zodProblems(parsed.error)
		).filter((p) => !unset.has(dotted(p.path)))
	];
	if (problems.length > 0) {
		const seen = new Set<string>();
		const lines = problems
			.map((p) => ({ p, pos: locate(doc, counter, p.path, p.atKey) }))
			.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col)
			.map(
				({ p, pos }) =>
					`${file}:${pos.line}:${pos.col} ${p.path.length ? `${dotted(p.path)}: ` : ''}${p.message}`
			)
			.filter((line) => !seen.has(line) && !!seen.add(line));
		throw new FileError(file, lines);
	}
	// safe because `parsed.success` holds whenever no problem was found
	return { file, config: (parsed as { data: UpstateFile }).data };
}

// Rules of the server's create inputs that span fields (a maintenance window's order, the
// channel's one provider block): the entry is checked by the input schema itself, with its
// keys standing in for ids, and each problem is put back on the entry's own field.
const REF_FIELDS: Record<string, string> = {
	pageId: 'page',
	monitor_id: 'monitor',
	group_id: 'group',
	monitor_ids: 'monitors',
	pageComponentIds: 'components'
};
function serverRuleProblems(config: UpstateFile): Problem[] {
	const problems: Problem[] = [];
	for (const kind of KIND_ORDER) {
		const def = KINDS[kind];
		for (const [key, entry] of Object.entries(config[kind] as Record<string, Fields>)) {
			const result = def.schema.safeParse(def.toInput(entry, () => 1));
			if (result.success) continue;
			for (const p of zodProblems(result.error, [kind, key])) {
				const field = p.path[2];
				if (typeof field === 'string' && REF_FIELDS[field]) p.path[2] = REF_FIELDS[field];
				problems.push(p);
			}
		}
	}
	return problems;
}

export function loadUpstateFile(file: string, env: Record<string, string | undefined>): LoadedFile {
	let source: string;
	try {
		source = readFileSync(file, 'utf8');
	} catch {
		throw new CliError(`cannot read ${file}`, {
			hint: 'pass the file with -f, or run `upstate export -f upstate.yaml` to start from the workspace'
		});
	}
	return parseUpstateFile(file, source, env);
}

export function zodProblems(error: z.ZodError, prefix: (string | number)[] = []): Problem[] {
	return error.issues.flatMap((i) => {
		const path = [...prefix, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
		return i.code === 'unrecognized_keys'
			? i.keys.map((k) => ({ path: [...path, k], message: 'unknown field', atKey: true }))
			: [{ path, message: i.message }];
	});
}

// Every key an entry names must exist, of the right kind, on the same page.
function referenceProblems(config: UpstateFile): Problem[] {
	const problems: Problem[] = [];
	const must = (kind: Kind, key: string, path: (string | number)[]) => {
		if (!Object.hasOwn(config[kind], key))
			problems.push({ path, message: `no entry "${key}" under ${kind}` });
	};
	for (const [key, g] of Object.entries(config.component_groups))
		must('status_pages', g.page, ['component_groups', key, 'page']);
	for (const [key, c] of Object.entries(config.components)) {
		must('status_pages', c.page, ['components', key, 'page']);
		if (c.type === 'monitor') must('monitors', c.monitor, ['components', key, 'monitor']);
		if (c.group !== null) {
			const group = config.component_groups[c.group];
			if (!group) must('component_groups', c.group, ['components', key, 'group']);
			else if (group.page !== c.page)
				problems.push({
					path: ['components', key, 'group'],
					message: `group "${c.group}" is on page "${group.page}", not "${c.page}"`
				});
		}
	}
	for (const [key, ch] of Object.entries(config.notification_channels))
		ch.monitors.forEach((m, i) =>
			must('monitors', m, ['notification_channels', key, 'monitors', i])
		);
	for (const [key, w] of Object.entries(config.maintenance)) {
		must('status_pages', w.page, ['maintenance', key, 'page']);
		w.components.forEach((c, i) => {
			const component = config.components[c];
			if (!component) must('components', c, ['maintenance', key, 'components', i]);
			else if (component.page !== w.page)
				problems.push({
					path: ['maintenance', key, 'components', i],
					message: `component "${c}" is on page "${component.page}", not "${w.page}"`
				});
		});
	}
	return problems;
}
