import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstate } from './run.ts';

let server: http.Server;
let base: string;

beforeAll(async () => {
	server = http.createServer((req, res) => {
		if (req.url === '/health') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
		else res.writeHead(503).end('down');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('upstate check', () => {
	it("runs an http check with the probe's code and shows its phases", async () => {
		const json = await upstate(['check', `${base}/health`, '--json']);
		expect(json.code).toBe(0);
		const result = json.json<{
			outcome: string;
			statusCode: number;
			timing: Record<string, number>;
		}>();
		expect(result).toMatchObject({ outcome: 'success', statusCode: 200, type: 'http' });
		expect(Object.keys(result.timing)).toEqual(
			expect.arrayContaining(['connect', 'ttfb', 'transfer'])
		);

		const table = await upstate(['check', `${base}/health`, '--timing']);
		expect(table.code).toBe(0);
		expect(table.stdout).toMatch(/outcome\s+success/);
		expect(table.stdout).toMatch(/status\s+200/);
		for (const phase of ['dns', 'connect', 'tls', 'ttfb', 'transfer'])
			expect(table.stdout).toContain(phase);
		// No name to resolve and no TLS on a plain IP URL: those phases show as "-".
		expect(table.stdout).toMatch(/tls\s+│\s+-/);
	});

	it('fails with exit 1 when the check fails, saying why and what next', async () => {
		const r = await upstate(['check', `${base}/down`, '--expect-status', '200']);
		expect(r.code).toBe(1);
		expect(r.stdout).toMatch(/outcome\s+error/);
		expect(r.stderr).toMatch(/^error check failed: .*\n→ /);
	});

	it('checks tcp targets with --type', async () => {
		const r = await upstate(['check', '--type', 'tcp', base.replace('http://', ''), '--json']);
		expect(r.json()).toMatchObject({ outcome: 'success', type: 'tcp' });
	});

	it('refuses what is not a target, by the server rules, with exit 2', async () => {
		const noType = await upstate(['check', 'example.com:80']);
		expect(noType.code).toBe(2);
		expect(noType.stderr).toContain('pass --type tcp|dns|icmp|grpc');
		const badUri = await upstate(['check', '--type', 'tcp', 'grpc://example.com:80']);
		expect(badUri.code).toBe(2);
		expect(badUri.stderr).toContain('no scheme allowed');
	});
});
