import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './run.ts';
import { startCliStack } from './stack.ts';

// `upstate login` at a terminal: the real bin under a pseudo-terminal (util-linux `script`), so
// stdin is a TTY and the @clack password prompt runs; the key is typed once the prompt shows.
const BIN = fileURLToPath(new URL('../bin/upstate.js', import.meta.url));
let stack: Awaited<ReturnType<typeof startCliStack>>;
let me: Awaited<ReturnType<typeof stack.workspace>>;

beforeAll(async () => {
	stack = await startCliStack();
	me = await stack.workspace();
});
afterAll(() => stack.close());

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

function loginAtTerminal(
	configDir: string,
	typed: string
): Promise<{ code: number; screen: string }> {
	// A fresh pty is 0 columns wide (clack would wrap after every character): give it a size.
	const command = `stty cols 200 rows 50; exec ${[process.execPath, BIN, 'login', '--base-url', stack.api.url].map(quote).join(' ')}`;
	const child = spawn('script', ['-qec', command, '/dev/null'], {
		env: { PATH: process.env.PATH, HOME: configDir, TERM: 'xterm', UPSTATE_CONFIG_DIR: configDir }
	});
	let screen = '';
	let typedIn = false;
	child.stdout.on('data', (chunk: Buffer) => {
		screen += chunk.toString();
		if (!typedIn && screen.includes(`API key for ${stack.api.url}`)) {
			typedIn = true;
			child.stdin.write(`${typed}\r`);
		}
	});
	return new Promise((resolve) =>
		child.on('close', (code) => resolve({ code: code ?? -1, screen }))
	);
}

describe('upstate login at a terminal', () => {
	it('prompts for the key without echoing it and keeps it with mode 0600', async () => {
		const dir = tempDir();
		const { code, screen } = await loginAtTerminal(dir, me.write);
		expect(code, screen).toBe(0);
		expect(screen).toContain(`Logged in to workspace ${me.ws.name}`);
		expect(screen).not.toContain(me.write);
		const file = path.join(dir, 'credentials.json');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ apiKey: me.write });
	});

	it('refuses a bad key and keeps nothing', async () => {
		const dir = tempDir();
		const { code, screen } = await loginAtTerminal(dir, 'usk_not-a-real-key');
		expect(code).toBe(1);
		expect(screen).toMatch(/UNAUTHORIZED/);
		expect(existsSync(path.join(dir, 'credentials.json'))).toBe(false);
	});
});
