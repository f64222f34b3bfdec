import { writeFileSync } from 'node:fs';
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { runCheck } from './checks/index.ts';
import type { ProbeMonitor } from './checks/types.ts';
import type { ProbeConfig } from './config.ts';
import { IngestService } from '@upstate/proto/ingest';
import { createOtelExport } from './otel.ts';
import { healthFile, Outbox } from './outbox.ts';
import { newResultId } from './result-id.ts';
import { fromWireMonitor, toWireResult } from './wire.ts';

// Spec 1.4.5 promises changes within 10 minutes; refreshing every 5 also serves as the heartbeat:
// the server counts ListMonitors as a report (last_seen_at) and marks a location `error` after 15
// minutes of silence, which a probe with only 30m/1h monitors (or none) would otherwise reach.
export const REFRESH_MS = 5 * 60 * 1000;
// A failed fetch is retried 1 s, 2 s, 4 s ... up to a minute apart until one succeeds.
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;
const PERIOD_MS = {
	'30s': 30_000,
	'1m': 60_000,
	'5m': 300_000,
	'10m': 600_000,
	'30m': 1_800_000,
	'1h': 3_600_000
};
const BATCH = 500;
// How often the probe asks for "run now" requests (monitor.trigger): the longest a trigger waits.
export const RUN_POLL_MS = 5000;

// Where in its period a monitor first runs: a stable spread, so monitors do not all start at once.
export const firstOffset = (id: number, period: number) => (id * 7919) % period;

export type ProbeOptions = {
	config: ProbeConfig;
	periodOf?: (m: ProbeMonitor) => number;
	flushEveryMs?: number;
	refreshMs?: number;
	runPollMs?: number;
};

type Job = { m: ProbeMonitor; key: string; period: number; nextAt: number; timer?: NodeJS.Timeout };

// Runs every assigned monitor at its period, each at its own offset inside the period (not all at
// second 0), with at most `concurrency` checks in flight; results go through the outbox.
export function createProbe(opts: ProbeOptions) {
	const { config } = opts;
	const periodOf = opts.periodOf ?? ((m: ProbeMonitor) => PERIOD_MS[m.periodicity]);
	const client: Client<typeof IngestService> = createClient(
		IngestService,
		createConnectTransport({ baseUrl: config.ingestUrl, httpVersion: '1.1' })
	);
	const headers = { authorization: `Bearer ${config.key}` };
	const outbox = new Outbox(config.outboxFile);
	let locationName = '';
	const otel = createOtelExport({ location: () => locationName });
	const jobs = new Map<number, Job>();
	// Runs due while `concurrency` checks are in flight wait here, in order, at most once each.
	const waiting: Array<{ job: Job; plannedAt: number; oneOff?: boolean }> = [];
	const queued = new Set<Job>();
	let inFlight = 0;
	let stopped = false;
	let deliveryFailing = false;
	const background: NodeJS.Timeout[] = [];

	async function runOne(job: Job, plannedAt: number): Promise<void> {
		const { m } = job;
		inFlight++;
		console.log(`[probe] job start monitor=${m.id} type=${m.type} lag=${Date.now() - plannedAt}ms`);
		try {
			const result = await runCheck(m, { dnsServers: config.dnsServers });
			outbox.push({ ...result, resultId: newResultId() });
			otel.record(m, result);
			console.log(
				`[probe] checked monitor=${m.id} name=${JSON.stringify(m.name)} ${result.outcome} status=${result.statusCode ?? result.grpcStatus ?? '-'} latency=${result.latency}ms${result.error ? ` error=${JSON.stringify(result.error)}` : ''}`
			);
		} catch (err) {
			console.error(
				`[probe] check crashed monitor=${m.id} error=${JSON.stringify((err as Error).message)}`
			);
		} finally {
			inFlight--;
			// The next waiting run: a one-off, or one whose monitor is still scheduled as it was.
			for (let next = waiting.shift(); next && !stopped; next = waiting.shift()) {
				queued.delete(next.job);
				if (next.oneOff || jobs.get(next.job.m.id) === next.job) {
					void runOne(next.job, next.plannedAt);
					break;
				}
			}
		}
	}

	function due(job: Job, plannedAt: number): void {
		if (inFlight < config.concurrency) return void runOne(job, plannedAt);
		if (queued.has(job)) {
			console.warn(`[probe] skipped monitor=${job.m.id} reason=still-waiting inFlight=${inFlight}`);
			return;
		}
		queued.add(job);
		waiting.push({ job, plannedAt });
	}

	// A "run now": one extra run with the settings the server sent, outside the schedule.
	function runNow(m: ProbeMonitor): void {
		const now = Date.now();
		const job: Job = { m, key: JSON.stringify(m), period: 0, nextAt: now };
		console.log(`[probe] run now monitor=${m.id}`);
		if (inFlight < config.concurrency) return void runOne(job, now);
		waiting.push({ job, plannedAt: now, oneOff: true });
	}

	// Each run is planned from the previous plan, not from when the timer fired, so late timers
	// never accumulate drift (setInterval would); a run missed entirely (a suspended process) is
	// skipped rather than run in a burst.
	function arm(job: Job): void {
		job.timer = setTimeout(
			() => {
				const plannedAt = job.nextAt;
				const now = Date.now();
				job.nextAt += job.period;
				while (job.nextAt <= now) job.nextAt += job.period;
				arm(job);
				due(job, plannedAt);
			},
			Math.max(0, job.nextAt - Date.now())
		);
	}

	// At start monitors are spread over their period; one that appears later runs at once.
	let initialSchedule = true;
	function schedule(monitors: ProbeMonitor[]): void {
		const now = Date.now();
		const wanted = new Map(monitors.map((m) => [m.id, m]));
		for (const [id, job] of jobs) {
			const m = wanted.get(id);
			if (!m || job.key !== JSON.stringify(m)) {
				clearTimeout(job.timer);
				jobs.delete(id);
			}
		}
		for (const m of monitors) {
			if (jobs.has(m.id)) continue;
			const period = periodOf(m);
			const nextAt = now + (initialSchedule ? firstOffset(m.id, period) : 0);
			const job: Job = { m, key: JSON.stringify(m), period, nextAt };
			jobs.set(m.id, job);
			arm(job);
		}
		otel.retain(monitors.flatMap((m) => (m.otel ? [m.otel] : [])));
		initialSchedule = false;
	}

	async function refresh(): Promise<boolean> {
		try {
			const res = await client.listMonitors({}, { headers });
			locationName = res.locationName;
			schedule(res.monitors.filter((m) => m.active).map(fromWireMonitor));
			console.log(
				`[probe] monitors location=${JSON.stringify(res.locationName)} count=${res.monitors.length}`
			);
			reportHealth('ok');
			return true;
		} catch (err) {
			const line = `failed to fetch monitors from ${config.ingestUrl}: ${wrongServerHint(config.ingestUrl, err) ?? (err as Error).message}`;
			console.error(`[probe] ${line}; retrying in ${retryMs / 1000}s`);
			reportHealth(line);
			return false;
		}
	}

	// After a success the next fetch is a refresh period away; after a failure, the next backoff
	// step (so a probe started before its ingest server schedules its monitors soon after).
	let retryMs = RETRY_FIRST_MS;
	let refreshTimer: NodeJS.Timeout | undefined;
	async function refreshLoop(): Promise<void> {
		const ok = await refresh();
		if (stopped) return;
		const wait = ok ? (opts.refreshMs ?? REFRESH_MS) : retryMs;
		retryMs = ok ? RETRY_FIRST_MS : Math.min(retryMs * 2, RETRY_MAX_MS);
		refreshTimer = setTimeout(() => void refreshLoop(), wait);
	}

	// An ingest server without ClaimRuns (older than the probe) is asked once, then left alone;
	// other failures show in the refresh and delivery logs already.
	let claimUnsupported = false;
	async function claimRuns(): Promise<void> {
		try {
			const res = await client.claimRuns({}, { headers });
			for (const m of res.monitors) runNow(fromWireMonitor(m));
		} catch (err) {
			if (err instanceof ConnectError && err.code === Code.Unimplemented) {
				claimUnsupported = true;
				console.warn('[probe] ingest server has no ClaimRuns: triggered checks are not run here');
			}
		}
	}

	async function flush(): Promise<void> {
		const batch = outbox.peek(BATCH);
		if (batch.length === 0) return;
		try {
			const res = await client.ingestResults({ results: batch.map(toWireResult) }, { headers });
			outbox.ack(new Set(batch.map((r) => r.resultId)));
			if (deliveryFailing) console.log(`[probe] delivery resumed pending=${outbox.size}`);
			deliveryFailing = false;
			reportHealth('ok');
			if (res.rejected)
				console.warn(
					`[probe] ingest rejected=${res.rejected} results for monitors no longer assigned`
				);
		} catch (err) {
			if (!deliveryFailing)
				console.error(
					`[probe] delivery failed, keeping results pending=${outbox.size}: ${(err as Error).message}`
				);
			deliveryFailing = true;
			reportHealth(`delivery failed: ${(err as Error).message}`);
		}
	}

	// The image's health check reads the outcome of the last exchange with the ingest server.
	function reportHealth(line: string): void {
		try {
			writeFileSync(healthFile(config.outboxFile), `${line} at=${new Date().toISOString()}\n`);
		} catch {
			// the health file is a convenience; the outbox itself reports disk trouble
		}
	}

	return {
		outbox,
		async start(): Promise<void> {
			console.log(
				`[probe] launched ingest=${config.ingestUrl} concurrency=${config.concurrency} pending=${outbox.size}`
			);
			await refreshLoop();
			let flushing = false;
			background.push(
				setInterval(async () => {
					if (flushing || stopped) return;
					flushing = true;
					await flush().finally(() => (flushing = false));
				}, opts.flushEveryMs ?? 1000)
			);
			let claiming = false;
			background.push(
				setInterval(async () => {
					if (claiming || stopped || claimUnsupported) return;
					claiming = true;
					await claimRuns().finally(() => (claiming = false));
				}, opts.runPollMs ?? RUN_POLL_MS)
			);
		},
		refresh,
		flush,
		claimRuns,
		stop(): void {
			stopped = true;
			for (const t of background) clearInterval(t);
			clearTimeout(refreshTimer);
			for (const job of jobs.values()) clearTimeout(job.timer);
			jobs.clear();
			waiting.length = 0;
			queued.clear();
			outbox.close();
			void otel.shutdown();
		}
	};
}

// The API server (port 3001) answers the ingest calls with 404, which Connect reports as
// unimplemented: say in one line where the probe should point instead (spec 1.1).
export function wrongServerHint(ingestUrl: string, err: unknown): string | undefined {
	const code = err instanceof ConnectError ? err.code : undefined;
	const port = new URL(ingestUrl).port;
	if (code !== Code.Unimplemented && port !== '3001') return undefined;
	return `SERVICE_INGEST_URL answers but is not the ingest server${port === '3001' ? ' (port 3001 is the API server)' : ''}: point it at the ingest server, port 8081 (private-location:8080 inside the stack's network)`;
}
