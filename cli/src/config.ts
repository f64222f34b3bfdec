import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import { CliError } from './errors.ts';

export const DEFAULT_BASE_URL = 'http://localhost:3001';

// The environment the CLI reads, parsed once (tests pass their own).
export const CliEnv = z.object({
	UPSTATE_API_KEY: z.string().optional(),
	UPSTATE_BASE_URL: z.string().optional(),
	UPSTATE_CONFIG_DIR: z.string().optional(),
	NO_COLOR: z.string().optional()
});
export type CliEnv = z.infer<typeof CliEnv>;

export function readEnv(env: Record<string, string | undefined>): CliEnv {
	const parsed = CliEnv.parse(env);
	// An empty variable counts as unset.
	return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== '')) as CliEnv;
}

const Credentials = z.object({ apiKey: z.string().min(1), baseUrl: z.string().optional() });
type Credentials = z.infer<typeof Credentials>;

// `upstate login` keeps the key in the user's config dir (XDG on Linux), readable by the user only.
export function credentialsFile(env: CliEnv): string {
	const dir = env.UPSTATE_CONFIG_DIR ?? envPaths('upstate', { suffix: '' }).config;
	return path.join(dir, 'credentials.json');
}

export function readCredentials(env: CliEnv): Credentials | null {
	const file = credentialsFile(env);
	let raw: string;
	try {
		raw = readFileSync(file, 'utf8');
	} catch {
		return null;
	}
	const parsed = Credentials.safeParse(JSON.parse(raw));
	if (!parsed.success)
		throw new CliError(`${file} is not a credentials file`, { hint: 'run `upstate login` again' });
	return parsed.data;
}

export function writeCredentials(env: CliEnv, creds: Credentials): string {
	const file = credentialsFile(env);
	mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
	writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
	chmodSync(file, 0o600); // an existing file keeps its mode on write
	return file;
}

export type Connection = { baseUrl: string; apiKey: string | null };

// Flag, then environment, then what `login` stored, then the default.
export function resolveConnection(env: CliEnv, flags: { baseUrl?: string }): Connection {
	const stored = readCredentials(env);
	const baseUrl = (
		flags.baseUrl ??
		env.UPSTATE_BASE_URL ??
		stored?.baseUrl ??
		DEFAULT_BASE_URL
	).replace(/\/+$/, '');
	if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
		throw new CliError(`base URL ${JSON.stringify(baseUrl)} is not an http(s) URL`, {
			hint: 'pass --base-url http://host:3001 or set UPSTATE_BASE_URL',
			exitCode: 2
		});
	return { baseUrl, apiKey: env.UPSTATE_API_KEY ?? stored?.apiKey ?? null };
}
