import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../src/program.ts';
import { connectTransport } from '../src/transport.ts';

export type CliResult = {
	code: number;
	stdout: string;
	stderr: string;
	json: <T = unknown>() => T;
};

// One `upstate …` command line run in-process against real HTTP: its own streams, environment
// and config dir (never the user's).
export async function upstate(
	argv: string[],
	opts: { env?: Record<string, string | undefined>; stdin?: string; tty?: boolean } = {}
): Promise<CliResult> {
	let stdout = '';
	let stderr = '';
	const code = await run(argv, {
		env: { UPSTATE_CONFIG_DIR: defaultConfigDir, ...opts.env },
		streams: {
			stdout: (s) => void (stdout += s),
			stderr: (s) => void (stderr += s),
			stdin: async () => opts.stdin ?? '',
			isTTY: opts.tty ?? false
		},
		connect: connectTransport
	});
	return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

const defaultConfigDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-cli-config-'));

export const tempDir = (prefix = 'upstate-cli-') => mkdtempSync(path.join(os.tmpdir(), prefix));
