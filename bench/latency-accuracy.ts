// HTTP latency accuracy: the probe's reported latency against a target in another process that
// answers after `delayMs`. Two references: the nominal delay, and the interval the target itself
// observed (connection accepted to last response byte written, on the shared monotonic clock).
// The second is what the request took on the wire, minus a small constant the comparison keeps:
// the TCP handshake before accept and the delivery of the last segment (loopback, tens of µs).
// The target's own marks are late when it is descheduled (a loaded machine): the span between
// its marks before and after the write is printed as the reference's own uncertainty.
//
// Two ways of running the checks. `lockstep`: N in flight, each started as the previous one
// finished, so (same delay) all N responses land in the same millisecond and are handled one after
// another: the worst case for the last of them. `spread`: N monitors each run once per period,
// first at `firstOffset` inside it and then planned from the previous plan, as the probe's
// scheduler (probe/src/probe.ts) runs them: this is the case measured against the 2 ms target.
// Both start after a warm-up (the probe runs for days; its first checks run unoptimised code).
// Every check is attributed: a GC pause in the probe or the target during it, or the probe's or the target's
// main thread waiting for a CPU (/proc schedstat) during it, which on a shared machine is noise
// outside the probe's control; the p99 of the checks with neither is printed beside the p99 of all.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { checkHttp } from '../probe/src/checks/http.ts';
import type { HttpMonitor } from '../probe/src/checks/types.ts';
import { firstOffset } from '../probe/src/probe.ts';
import { fmt, pct } from './stats.ts';

type Seen = Record<string, { accepted: string; before: string; written: string }>;
type Dump = { seen: Seen; gcs: Array<{ start: string; end: string }> };
export type Schedule =
	{ kind: 'lockstep'; inFlight: number } | { kind: 'spread'; monitors: number; periodMs: number };

const WARMUP = 30;
const CPU_WAIT_MS = 0.5; // a wait for a CPU this long or longer during a check marks it disturbed

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

// Time a thread has spent runnable but waiting for a CPU, in ms (0 where /proc has no schedstat).
function cpuWait(file: string): number {
	try {
		return Number(readFileSync(file, 'utf8').split(' ')[1]) / 1e6;
	} catch {
		return 0;
	}
}

export async function latencyAccuracy(
	delayMs: number,
	runs: number,
	schedule: Schedule
): Promise<void> {
	const child = fork(new URL('./latency-target.ts', import.meta.url), [String(delayMs)]);
	const port = await new Promise<number>((r) =>
		child.once('message', (m) => r((m as { port: number }).port))
	);
	const targetSched = `/proc/${child.pid}/task/${child.pid}/schedstat`;
	const gcs: Array<{ start: number; end: number }> = [];
	const gcObserver = new PerformanceObserver((list) => {
		for (const e of list.getEntries())
			gcs.push({ start: e.startTime, end: e.startTime + e.duration });
	});
	gcObserver.observe({ entryTypes: ['gc'] });

	type Check = { latency: number; start: number; end: number; wait: number };
	const checks = new Map<string, Check>();
	async function run(id: string): Promise<void> {
		const start = performance.now();
		const wait0 = cpuWait('/proc/thread-self/schedstat') + cpuWait(targetSched);
		const r = await checkHttp(monitor(`http://127.0.0.1:${port}/${id}`));
		const wait = cpuWait('/proc/thread-self/schedstat') + cpuWait(targetSched) - wait0;
		if (r.outcome === 'error') throw new Error(`bench check failed: ${r.error}`);
		checks.set(id, { latency: r.latency, start, end: performance.now(), wait });
	}

	for (let i = 0; i < WARMUP; i++) await run(`warmup-${i}`);
	checks.clear();
	const loadBefore = load();
	let next = 0;
	if (schedule.kind === 'lockstep') {
		await Promise.all(
			Array.from({ length: schedule.inFlight }, async () => {
				while (next < runs) await run(String(next++));
			})
		);
	} else {
		const { monitors, periodMs } = schedule;
		const t0 = Date.now();
		await Promise.all(
			Array.from({ length: monitors }, async (_, i) => {
				for (let at = t0 + firstOffset(i + 1, periodMs); next < runs; at += periodMs) {
					await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
					if (next < runs) await run(String(next++));
				}
			})
		);
	}
	gcObserver.disconnect();
	const dump = await new Promise<Dump>((r) => {
		child.once('message', (m) => r(m as Dump));
		child.send('dump');
	});
	const seen = dump.seen;
	// The target's GC pauses on this process's performance.now() clock (both monotonic).
	const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
	for (const g of dump.gcs)
		gcs.push({ start: Number(g.start) / 1e6 - offset, end: Number(g.end) / 1e6 - offset });

	const vsNominal: number[] = [];
	const vsServer: number[] = [];
	const undisturbed: number[] = [];
	const signed: number[] = [];
	const writeSpan: number[] = [];
	const over = { n: 0, gc: 0, wait: 0 };
	let disturbed = 0;
	for (const [id, c] of checks) {
		const s = seen[`/${id}`];
		const observed = Number(BigInt(s.written) - BigInt(s.accepted)) / 1e6;
		const error = Math.abs(c.latency - observed);
		const gc = gcs.some((g) => g.end > c.start && g.start < c.end);
		const waited = c.wait >= CPU_WAIT_MS;
		vsNominal.push(Math.abs(c.latency - delayMs));
		vsServer.push(error);
		if (!gc && !waited) undisturbed.push(error);
		else disturbed++;
		signed.push(c.latency - observed);
		writeSpan.push(Number(BigInt(s.written) - BigInt(s.before)) / 1e6);
		if (error > 2) {
			over.n++;
			if (gc) over.gc++;
			if (waited) over.wait++;
		}
	}
	for (const a of [vsNominal, vsServer, undisturbed, signed, writeSpan]) a.sort((x, y) => x - y);
	const how =
		schedule.kind === 'lockstep'
			? `${schedule.inFlight} in flight in lockstep (worst case, not the target's case)`
			: `${schedule.monitors} monitors every ${schedule.periodMs} ms, starts spread as the probe's scheduler does (the case measured against the target)`;
	console.log(
		`latency accuracy (http, target in a child process, delay ${delayMs} ms, ${checks.size} checks after ${WARMUP} warm-up, ${how}; load ${loadBefore} -> ${load()}):\n` +
			`  |reported - server-observed| p50=${fmt(pct(vsServer, 50))} ms p99=${fmt(pct(vsServer, 99))} ms max=${fmt(pct(vsServer, 100))} ms${schedule.kind === 'spread' ? ' (target p99 < 2 ms)' : ''}\n` +
			`  |reported - nominal delay|   p50=${fmt(pct(vsNominal, 50))} ms p99=${fmt(pct(vsNominal, 99))} ms (includes the target's own timer lateness)\n` +
			`  reported - server-observed   p1=${fmt(pct(signed, 1))} p50=${fmt(pct(signed, 50))} p99=${fmt(pct(signed, 99))} ms (includes handshake before accept)\n` +
			`  server's write mark uncertainty (after - before the write) p50=${fmt(pct(writeSpan, 50))} p99=${fmt(pct(writeSpan, 99))} ms\n` +
			`  disturbed (a GC pause in the probe or the target, or either waiting >= ${CPU_WAIT_MS} ms for a CPU): ${disturbed} of ${checks.size} checks; ` +
			`of the ${over.n} off by > 2 ms: ${over.gc} GC, ${over.wait} waiting for a CPU; ` +
			(undisturbed.length
				? `undisturbed (${undisturbed.length}): p50=${fmt(pct(undisturbed, 50))} ms p99=${fmt(pct(undisturbed, 99))} ms`
				: 'none undisturbed')
	);
}
