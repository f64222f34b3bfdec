import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CliError } from '../errors.ts';

// A JSON or YAML object from a file (`-` reads stdin is not offered: keep scripts explicit).
export function readJsonOrYaml(file: string): Record<string, unknown> {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		throw new CliError(`cannot read ${file}`, { hint: 'check the path given to --file' });
	}
	let value: unknown;
	try {
		value = parse(text);
	} catch (err) {
		throw new CliError(`${file} is not JSON or YAML: ${(err as Error).message.split('\n')[0]}`, {
			hint: 'fix the file and run again'
		});
	}
	if (!value || typeof value !== 'object' || Array.isArray(value))
		throw new CliError(`${file} must hold one object of fields`, {
			hint: 'write the fields as `name: value` lines or a JSON object'
		});
	return value as Record<string, unknown>;
}
