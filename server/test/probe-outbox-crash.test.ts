import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAlertingStack } from './alerting-stack.ts';
import { until } from './crash-stack.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The real probe as a process (probe/test/run-probe.ts) reporting to a real ingest server
// through a gate the test opens and closes: while closed results pile up in the outbox.
let stack: Awaited<ReturnType<typeof startAlertingStack>>;
let target: http.Server;
let gate: http.Server;
let gateUrl: string;
let open = false;

beforeAll(async () => {
	vi.spyOn(console, 'log').mockImplementation(() => {});
	vi.spyOn(console, 'warn').mockImplementation(() => {});
	target = http.createServer((_req, res) => res.end('ok'));
	await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
	stack = await startAlertingStack({
		targetUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`
	});
	const upstream = new URL(stack.ingestUrl);
	gate = http.createServer((req, res) => {
		// Closed: results are refused (the probe keeps them); its monitor list still comes through.
		if (!open && req.url?.includes('IngestResults')) return void res.writeHead(503).end();
		const fwd = http.request(
			{
				host: upstream.hostname,
				port: upstream.port,
				path: req.url,
				method: req.method,
				headers: req.headers
			},
			(up) => {
				res.writeHead(up.statusCode ?? 502, up.headers);
				up.pipe(res);
			}
		);
		fwd.on('error', () => res.writeHead(502).end());
		req.pipe(fwd);
	});
	await new Promise<void>((r) => gate.listen(0, '127.0.0.1', r));
	gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
});
afterAll(async () => {
	gate?.closeAllConnections();
	gate?.close();
	target?.close();
	await stack?.close();
	vi.restoreAllMocks();
});

type Probe = { child: ChildProcess; logs: string[]; produced: string[]; exited: Promise<unknown> };

function startProbe(outboxFile: string): Probe {
	const child = spawn(process.execPath, ['probe/test/run-probe.ts'], {
		cwd: root,
		env: {
			...process.env,
			SERVICE_KEY: stack.key,
			SERVICE_INGEST_URL: gateUrl,
			PROBE_OUTBOX_FILE: outboxFile,
			PROBE_CONCURRENCY: '5',
			TEST_PERIOD_MS: '20'
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	const probe: Probe = {
		child,
		logs: [],
		produced: [],
		exited: new Promise((r) => child.once('exit', r))
	};
	let rest = '';
	const onData = (b: Buffer) => {
		const lines = (rest + b.toString()).split('\n');
		rest = lines.pop() ?? '';
		for (const line of lines) {
			probe.logs.push(line);
			const id = /^produced result=(\S+)$/.exec(line)?.[1];
			if (id) probe.produced.push(id);
		}
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	return probe;
}

async function kill(probe: Probe): Promise<void> {
	probe.child.kill('SIGKILL');
	await probe.exited;
}

// Every result id the probe said it produced, and how many times each stored result id is stored.
async function stored(): Promise<Map<string, number>> {
	const client = createClient({ url: stack.upstate.config.analytics.embeddedUrl });
	const rows = await client
		.execute(
			'select result_id, count(*) as n from check_result where monitor_id = ? group by result_id',
			[stack.monitor.id]
		)
		.catch(() => ({ rows: [] })) // the store creates its table on the first insert
		.finally(() => client.close());
	return new Map(rows.rows.map((r) => [String(r.result_id), Number(r.n)]));
}

async function expectAllStoredOnce(produced: string[]): Promise<void> {
	await until(async () => {
		const s = await stored();
		return produced.every((id) => s.has(id));
	}, 'every produced result to be stored');
	const s = await stored();
	expect(produced.filter((id) => s.get(id) !== 1)).toEqual([]);
	expect([...s.values()].every((n) => n === 1)).toBe(true);
}

function tryMount(dir: string, size: string): boolean {
	return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0;
}
const mountDir = mkdtempSync(path.join(os.tmpdir(), 'probe-tmpfs-'));
const canMount = tryMount(mountDir, '256k');

describe('probe outbox across crashes', { timeout: 120_000 }, () => {
	it('SIGKILLed while writing, three times: every produced result is stored once', async () => {
		open = false;
		const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'probe-crash-')), 'outbox.jsonl');
		const produced: string[] = [];
		for (let round = 0; round < 3; round++) {
			const probe = startProbe(file);
			await until(() => probe.produced.length >= 100, 'results to pile up');
			await kill(probe);
			produced.push(...probe.produced);
		}
		const last = startProbe(file);
		open = true;
		await expectAllStoredOnce(produced);
		last.child.kill('SIGTERM');
		await last.exited;
	});

	it.skipIf(!canMount)(
		'on a full outbox filesystem: keeps checking, says outbox full once, writes out when space returns, starts while full',
		async () => {
			open = false;
			const file = path.join(mountDir, 'outbox.jsonl');
			const filler = path.join(mountDir, 'filler');
			const fill = () => {
				try {
					writeFileSync(filler, Buffer.alloc(512 * 1024));
				} catch {
					// ENOSPC: the filler took what was left, which is the point
				}
			};
			fill();
			const a = startProbe(file);
			await until(() => a.logs.some((l) => l.includes('outbox full')), 'the outbox to fill');
			const atFull = a.produced.length;
			await until(() => a.produced.length >= atFull + 30, 'checks to go on while full');
			expect(a.logs.filter((l) => l.includes('outbox full'))).toHaveLength(1);
			expect(a.logs.filter((l) => l.includes('check crashed'))).toEqual([]);
			rmSync(filler);
			await until(() => a.logs.some((l) => l.includes('outbox writable again')), 'space');
			await kill(a);
			// Full again, and a fresh start on it: the probe starts and checks all the same.
			fill();
			const b = startProbe(file);
			await until(() => b.logs.some((l) => l.includes('[probe] launched')), 'the start');
			await until(() => b.produced.length >= 20, 'checks after a start on a full disk');
			expect(b.logs.filter((l) => l.includes('check crashed'))).toEqual([]);
			rmSync(filler);
			await until(() => b.logs.some((l) => l.includes('outbox writable again')), 'space');
			open = true;
			await expectAllStoredOnce([...a.produced, ...b.produced]);
			b.child.kill('SIGTERM');
			await b.exited;
		}
	);
});

afterAll(() => {
	if (canMount) spawnSync('umount', ['-l', mountDir]);
});
