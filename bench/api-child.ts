// The API server of a bench in its own process (the bench's load loop must not share its event
// loop), on a database the bench prepared, with no credential budget: the benches measure the
// server, not the rate limiter. Run as a script, this file is that child.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export type ApiChild = { base: string; child: ChildProcessByStdio<null, Readable, null> };

export async function spawnApiChild(dbUrl: string): Promise<ApiChild> {
	const child = spawn(process.execPath, [fileURLToPath(import.meta.url), dbUrl], {
		stdio: ['ignore', 'pipe', 'ignore']
	});
	const base = await new Promise<string>((resolve, reject) => {
		child.stdout.once('data', (d: Buffer) => resolve(d.toString().split('\n')[0].trim()));
		child.once('exit', (code) => reject(new Error(`the bench's API server exited (${code})`)));
	});
	child.stdout.resume(); // its request log, drained so the server never blocks on the pipe
	return { base, child };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { createDb } = await import('../server/src/db/client.ts');
	const { createTestUpstate, startApi } = await import('../server/test/upstate.ts');
	const api = await startApi(
		createTestUpstate(createDb({ url: process.argv[2] }), {
			RATE_LIMIT_REQUESTS: String(1_000_000_000)
		})
	);
	console.log(api.url);
}
