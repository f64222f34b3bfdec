import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// In a child process: the errors under test are uncaught by design, and the test runner would
// take them for its own.
let child: ChildProcess;
let ports: { site: number; api: number };
const stderr: string[] = [];

beforeAll(async () => {
	child = spawn(process.execPath, ['server/test/isolate-fixture.ts'], {
		stdio: ['ignore', 'pipe', 'pipe']
	});
	child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
	const [line] = (await once(child.stdout!, 'data')) as [Buffer];
	ports = JSON.parse(line.toString()) as typeof ports;
});
afterAll(() => {
	child.kill();
});

const get = async (port: number, path: string) => {
	const res = await fetch(`http://127.0.0.1:${port}${path}`);
	return { status: res.status, body: await res.text() };
};

describe('one failing request never takes the all-in-one process down', () => {
	it('answers a static file missing under its stream with 404, a throw or rejection with 500', async () => {
		expect(await get(ports.site, '/missing.js')).toEqual({ status: 404, body: 'Not found' });
		expect((await get(ports.site, '/throw')).status).toBe(500);
		expect((await get(ports.site, '/reject')).status).toBe(500);
		// The same service and the other one keep answering.
		expect(await get(ports.site, '/')).toEqual({ status: 200, body: 'site ok' });
		expect(await get(ports.api, '/')).toEqual({ status: 200, body: 'api ok' });
		expect(child.exitCode).toBeNull();
	});

	it('logs each failure as one line naming the service and the request', async () => {
		const log = stderr.join('');
		expect(log).toMatch(
			/^\[main\] request failed service=dashboard method=GET url="\/missing.js" error=".*ENOENT.*"$/m
		);
		expect(log).toMatch(
			/^\[main\] request failed service=dashboard method=GET url="\/throw" error="Error: boom"$/m
		);
	});

	it('answers the request whose timer threw after the handler returned', async () => {
		expect((await get(ports.site, '/timer')).status).toBe(500);
		expect(await get(ports.api, '/')).toEqual({ status: 200, body: 'api ok' });
	});
});
