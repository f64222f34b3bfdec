import Table from 'cli-table3';
import pc from 'picocolors';

// Where a command writes, and how: tables and colour for people, JSON for scripts (`--json`),
// nothing but errors with `--quiet`. Tests pass their own streams and environment.
export type Streams = {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	stdin: () => Promise<string>;
	isTTY: boolean;
};

export type Colors = ReturnType<typeof pc.createColors>;

export type Output = {
	json: boolean;
	quiet: boolean;
	color: Colors;
	streams: Streams;
};

export type Column<T> = { header: string; value: (row: T) => unknown };

export function createOutput(
	streams: Streams,
	opts: { json: boolean; quiet: boolean; color: boolean }
): Output {
	return { json: opts.json, quiet: opts.quiet, color: pc.createColors(opts.color), streams };
}

const text = (v: unknown): string =>
	v === null || v === undefined
		? ''
		: Array.isArray(v)
			? v.join(', ')
			: typeof v === 'object'
				? JSON.stringify(v)
				: String(v);

export function printJson(out: Output, data: unknown): void {
	out.streams.stdout(`${JSON.stringify(data, null, 2)}\n`);
}

// A list: a table for people (or "No X." when empty), the data as JSON for scripts.
export function printList<T>(
	out: Output,
	rows: T[],
	columns: Column<T>[],
	empty: string,
	json: unknown = rows
): void {
	if (out.json) return printJson(out, json);
	if (out.quiet) return;
	if (rows.length === 0) return out.streams.stdout(`${out.color.dim(empty)}\n`);
	const table = new Table({
		head: columns.map((c) => out.color.bold(c.header)),
		style: { head: [], border: [] },
		chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' }
	});
	for (const row of rows) table.push(columns.map((c) => text(c.value(row))));
	out.streams.stdout(`${table.toString()}\n`);
}

// One record: `field  value` lines for people.
export function printRecord(out: Output, record: Record<string, unknown>, fields?: string[]): void {
	if (out.json) return printJson(out, record);
	if (out.quiet) return;
	const keys = fields ?? Object.keys(record);
	const width = Math.max(...keys.map((k) => k.length));
	const lines = keys
		.filter((k) => record[k] !== undefined)
		.map((k) => `${out.color.dim(k.padEnd(width))}  ${text(record[k])}`);
	out.streams.stdout(`${lines.join('\n')}\n`);
}

// A one-line confirmation ("Created monitor 42."); JSON mode prints the result instead.
export function done(out: Output, message: string, result: unknown): void {
	if (out.json) return printJson(out, result);
	if (!out.quiet) out.streams.stdout(`${out.color.green('✓')} ${message}\n`);
}

export function info(out: Output, message: string): void {
	if (!out.quiet && !out.json) out.streams.stderr(`${message}\n`);
}
