import type { Command } from 'commander';
import { createApi, type Api, type Transport } from './api.ts';
import { readEnv, resolveConnection, type CliEnv, type Connection } from './config.ts';
import { CliError, usageError } from './errors.ts';
import { createOutput, type Output, type Streams } from './io.ts';

// What a command runs with: output settings, the environment, and a client made on first use
// (so `--help`, `check` and `plan` errors never need a key).
export type Runtime = {
	env: CliEnv;
	streams: Streams;
	connect: (conn: Connection) => Transport;
};

export type Ctx = {
	out: Output;
	env: CliEnv;
	rawEnv: Record<string, string | undefined>;
	streams: Streams;
	conn: () => Connection;
	api: () => Api;
	transportFor: (conn: Connection) => Transport;
};

export type GlobalOptions = { json?: boolean; quiet?: boolean; color?: boolean; baseUrl?: string };

export function ctxFor(
	cmd: Command,
	rt: Runtime & { rawEnv: Record<string, string | undefined> }
): Ctx {
	const g = cmd.optsWithGlobals<GlobalOptions>();
	const color = g.color !== false && rt.env.NO_COLOR === undefined && rt.streams.isTTY;
	const out = createOutput(rt.streams, { json: !!g.json, quiet: !!g.quiet, color });
	const conn = () => resolveConnection(rt.env, { baseUrl: g.baseUrl });
	return {
		out,
		env: rt.env,
		rawEnv: rt.rawEnv,
		streams: rt.streams,
		conn,
		transportFor: rt.connect,
		api: () => {
			const c = conn();
			if (!c.apiKey)
				throw new CliError('no API key', {
					hint: 'set UPSTATE_API_KEY or run `upstate login` (keys are made in the dashboard under Settings → API keys)'
				});
			return createApi(c.baseUrl, rt.connect(c));
		}
	};
}

export { readEnv };

// Argument parsers for commander: an id, a list of ids, a number.
export function parseId(value: string): number {
	const n = Number(value);
	if (!Number.isInteger(n) || n <= 0)
		throw usageError(`"${value}" is not an id (a positive whole number)`);
	return n;
}
export const parseIds = (value: string, previous: number[] = []): number[] => [
	...previous,
	...value.split(',').filter(Boolean).map(parseId)
];
export function parseNumber(value: string): number {
	const n = Number(value);
	if (!Number.isFinite(n) || value.trim() === '') throw usageError(`"${value}" is not a number`);
	return n;
}
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
