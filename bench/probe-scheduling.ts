// Probe scheduling under load: the real probe (`probe/src/main.ts`, a child process) runs N tcp
// monitors at `1m` against a local TCP server, reporting to a minimal ingest stub here. Start lag
// is what the probe logs per run (actual minus planned start); RSS is the child's, from /proc.
import { create } from '@bufbuild/protobuf';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { firstOffset } from '../probe/src/probe.ts';
import { pct, processRssMb as rssMb } from './stats.ts';
import { IngestService, MonitorSchema } from '@upstate/proto/ingest';

const PERIOD = 60_000;

export async function probeScheduling(monitors: number, seconds: number): Promise<void> {
	const target = net.createServer((s) => {
		s.on('error', () => {});
		s.end();
	});
	await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
	const uri = `127.0.0.1:${(target.address() as AddressInfo).port}`;
	const list = Array.from({ length: monitors }, (_, i) =>
		create(MonitorSchema, {
			id: i + 1,
			name: `bench ${i + 1}`,
			type: 'tcp',
			periodicity: '1m',
			timeoutMs: 5000,
			retry: 0,
			active: true,
			uri
		})
	);
	let listedAt = 0;
	const starts: Array<{ monitorId: number; startedAt: number }> = [];
	const ingest = http.createServer(
		connectNodeAdapter({
			routes(router) {
				router.service(IngestService, {
					listMonitors() {
						listedAt ||= Date.now();
						return { locationName: 'bench', monitors: list };
					},
					ingestResults(req) {
						for (const r of req.results)
							starts.push({ monitorId: r.monitorId, startedAt: r.startedAtMs });
						return { accepted: req.results.length, duplicates: 0, rejected: 0 };
					}
				});
			}
		})
	);
	await new Promise<void>((r) => ingest.listen(0, '127.0.0.1', r));

	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-bench-probe-'));
	const child = spawn(
		process.execPath,
		[path.resolve(import.meta.dirname, '../probe/src/main.ts')],
		{
			env: {
				...process.env,
				SERVICE_KEY: 'usp_bench',
				SERVICE_INGEST_URL: `http://127.0.0.1:${(ingest.address() as AddressInfo).port}`,
				PROBE_OUTBOX_FILE: path.join(dir, 'outbox.jsonl')
			},
			stdio: ['ignore', 'pipe', 'pipe']
		}
	);
	// The probe logs each run's start lag (`job start ... lag=12ms`, actual start minus the start
	// it planned); those lines are read here instead of printed.
	const lags: number[] = [];
	let logLines = 0;
	let partial = '';
	child.stdout.on('data', (b: Buffer) => {
		const lines = (partial + b.toString()).split('\n');
		partial = lines.pop() ?? '';
		logLines += lines.length;
		for (const line of lines) {
			const lag = /^\[probe\] job start .* lag=(-?\d+)ms/.exec(line)?.[1];
			if (lag !== undefined) lags.push(Number(lag));
		}
	});
	let skipped = 0;
	child.stderr.on(
		'data',
		(b: Buffer) => (skipped += b.toString().split('[probe] skipped').length - 1)
	);
	let peakRss = 0;
	const t0 = Date.now();
	while (Date.now() - t0 < seconds * 1000) {
		await new Promise((r) => setTimeout(r, 1000));
		peakRss = Math.max(peakRss, rssMb(child.pid ?? 0) || 0);
		const elapsed = Math.round((Date.now() - t0) / 1000);
		if (elapsed % 10 === 0)
			process.stdout.write(
				`\r  ${monitors} monitors: ${elapsed}/${seconds} s, ${starts.length} results, rss ${Math.round(peakRss)} MB   `
			);
	}
	const endRss = rssMb(child.pid ?? 0);
	child.kill('SIGTERM');
	await new Promise((r) => child.once('exit', r));
	ingest.close();
	target.close();

	lags.sort((x, y) => x - y);
	// Runs planned before the last 5 s (results still in flight are not counted as missing).
	let planned = 0;
	const horizon = t0 + (seconds - 5) * 1000;
	for (let id = 1; id <= monitors; id++)
		for (let at = listedAt + firstOffset(id, PERIOD); at < horizon; at += PERIOD) planned++;
	const delivered = starts.filter((s) => s.startedAt < horizon).length;
	console.log(
		`\rprobe scheduling, ${monitors} tcp monitors at 1m for ${seconds} s: start lag p50=${pct(lags, 50)} ms p99=${pct(lags, 99)} ms max=${lags.at(-1)} ms; ${delivered}/${planned} planned runs done, ${skipped} skipped; rss peak=${Math.round(peakRss)} MB end=${Math.round(endRss)} MB; ${logLines} log lines (targets at 10,000: p99 < 1000 ms, rss < 300 MB)`
	);
}
