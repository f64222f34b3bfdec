// HTTP latency accuracy: the probe's reported latency against a target in another process that
// answers after `delayMs`. Two references: the nominal delay, and the interval the target itself
// observed (connection accepted to last response byte written, on the shared monotonic clock).
// The second is what the request took on the wire, minus a small constant the comparison keeps:
// the TCP handshake before accept and the delivery of the last segment (loopback, tens of µs).
// The target's own marks are late when it is descheduled (a loaded machine): the span between
// its marks before and after the write is printed as the reference's own uncertainty.
import { fork } from 'node:child_process';
import os from 'node:os';
import { checkHttp } from '../probe/src/checks/http.ts';
import type { HttpMonitor } from '../probe/src/checks/types.ts';
import { fmt, pct } from './stats.ts';

type Seen = Record<string, { accepted: string; before: string; written: string }>;

const monitor = (url: string): HttpMonitor => ({
	id: 1,
	name: 'b',
	type: 'http',
	periodicity: '1m',
	timeout: 5000,
	degraded_at: null,
	retry: 0,
	url,
	method: 'GET',
	body: '',
	follow_redirects: true,
	headers: [],
	status_code_assertions: [],
	body_assertions: [],
	header_assertions: []
});

const load = () =>
	os
		.loadavg()
		.map((l) => l.toFixed(2))
		.join(' ');

export async function latencyAccuracy(
	delayMs: number,
	runs: number,
	concurrency: number
): Promise<void> {
	const child = fork(new URL('./latency-target.ts', import.meta.url), [String(delayMs)]);
	const port = await new Promise<number>((r) =>
		child.once('message', (m) => r((m as { port: number }).port))
	);
	const reported = new Map<string, number>();
	let next = 0;
	const loadBefore = load();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < runs) {
				const id = `/${next++}`;
				const r = await checkHttp(monitor(`http://127.0.0.1:${port}${id}`));
				if (r.outcome === 'error') throw new Error(`bench check failed: ${r.error}`);
				reported.set(id, r.latency);
			}
		})
	);
	const seen = await new Promise<Seen>((r) => {
		child.once('message', (m) => r((m as { seen: Seen }).seen));
		child.send('dump');
	});
	const vsNominal: number[] = [];
	const vsServer: number[] = [];
	const signed: number[] = [];
	const writeSpan: number[] = [];
	for (const [id, latency] of reported) {
		const s = seen[id];
		const observed = Number(BigInt(s.written) - BigInt(s.accepted)) / 1e6;
		vsNominal.push(Math.abs(latency - delayMs));
		vsServer.push(Math.abs(latency - observed));
		signed.push(latency - observed);
		writeSpan.push(Number(BigInt(s.written) - BigInt(s.before)) / 1e6);
	}
	for (const a of [vsNominal, vsServer, signed, writeSpan]) a.sort((x, y) => x - y);
	console.log(
		`latency accuracy (http, target in a child process, delay ${delayMs} ms, ${runs} checks, ${concurrency} in flight, load ${loadBefore} -> ${load()}):\n` +
			`  |reported - nominal delay|   p50=${fmt(pct(vsNominal, 50))} ms p99=${fmt(pct(vsNominal, 99))} ms\n` +
			`  |reported - server-observed| p50=${fmt(pct(vsServer, 50))} ms p99=${fmt(pct(vsServer, 99))} ms max=${fmt(pct(vsServer, 100))} ms (target p99 < 2 ms)\n` +
			`  reported - server-observed   p1=${fmt(pct(signed, 1))} p50=${fmt(pct(signed, 50))} p99=${fmt(pct(signed, 99))} ms (includes handshake before accept)\n` +
			`  server's write mark uncertainty (after - before the write) p50=${fmt(pct(writeSpan, 50))} p99=${fmt(pct(writeSpan, 99))} ms`
	);
}
