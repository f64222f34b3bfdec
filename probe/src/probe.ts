import { randomUUID } from 'node:crypto';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { runCheck } from './checks/index.ts';
import type { ProbeMonitor } from './checks/types.ts';
import type { ProbeConfig } from './config.ts';
import { IngestService } from './gen/upstate/ingest/v1/ingest_pb.ts';
import { Outbox } from './outbox.ts';
import { fromWireMonitor, toWireResult } from './wire.ts';

export const REFRESH_MS = 10 * 60 * 1000; // spec 1.4.5 / 8
const PERIOD_MS = {
	'30s': 30_000,
	'1m': 60_000,
	'5m': 300_000,
	'10m': 600_000,
	'30m': 1_800_000,
	'1h': 3_600_000
};
const BATCH = 500;

export type ProbeOptions = {
	config: ProbeConfig;
	periodOf?: (m: ProbeMonitor) => number;
	flushEveryMs?: number;
	refreshMs?: number;
};

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
	const timers = new Map<number, { key: string; timer: NodeJS.Timeout }>();
	let inFlight = 0;
	let stopped = false;
	let deliveryFailing = false;
	const background: NodeJS.Timeout[] = [];

	async function runOne(m: ProbeMonitor): Promise<void> {
		if (inFlight >= config.concurrency) {
			console.warn(`[probe] skipped monitor=${m.id} reason=concurrency-limit inFlight=${inFlight}`);
			return;
		}
		inFlight++;
		console.log(`[probe] job start monitor=${m.id} type=${m.type}`);
		try {
			const result = await runCheck(m, { dnsServers: config.dnsServers });
			outbox.push({ ...result, resultId: randomUUID() });
			console.log(
				`[probe] checked monitor=${m.id} name=${JSON.stringify(m.name)} ${result.outcome} status=${result.statusCode ?? result.grpcStatus ?? '-'} latency=${result.latency}ms${result.error ? ` error=${JSON.stringify(result.error)}` : ''}`
			);
		} finally {
			inFlight--;
		}
	}

	// At start monitors are spread over their period; one that appears later runs at once.
	let initialSchedule = true;
	function schedule(monitors: ProbeMonitor[]): void {
		const wanted = new Map(monitors.map((m) => [m.id, m]));
		for (const [id, entry] of timers) {
			if (!wanted.has(id) || entry.key !== JSON.stringify(wanted.get(id))) {
				clearTimeout(entry.timer);
				clearInterval(entry.timer);
				timers.delete(id);
			}
		}
		for (const m of monitors) {
			if (timers.has(m.id)) continue;
			const period = periodOf(m);
			const offset = initialSchedule ? (m.id * 7919) % period : 0; // stable spread over the period
			const entry = {
				key: JSON.stringify(m),
				timer: setTimeout(() => {
					void runOne(m);
					entry.timer = setInterval(() => void runOne(m), period);
				}, offset)
			};
			timers.set(m.id, entry);
		}
		initialSchedule = false;
	}

	async function refresh(): Promise<void> {
		try {
			const res = await client.listMonitors({}, { headers });
			schedule(res.monitors.filter((m) => m.active).map(fromWireMonitor));
			console.log(
				`[probe] monitors location=${JSON.stringify(res.locationName)} count=${res.monitors.length}`
			);
		} catch (err) {
			console.error(
				`[probe] failed to fetch monitors from ${config.ingestUrl}: ${(err as Error).message}; retrying`
			);
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
		}
	}

	return {
		outbox,
		async start(): Promise<void> {
			console.log(
				`[probe] launched ingest=${config.ingestUrl} concurrency=${config.concurrency} pending=${outbox.size}`
			);
			await refresh();
			background.push(setInterval(() => void refresh(), opts.refreshMs ?? REFRESH_MS));
			let flushing = false;
			background.push(
				setInterval(async () => {
					if (flushing || stopped) return;
					flushing = true;
					await flush().finally(() => (flushing = false));
				}, opts.flushEveryMs ?? 1000)
			);
		},
		refresh,
		flush,
		stop(): void {
			stopped = true;
			for (const t of background) clearInterval(t);
			for (const { timer } of timers.values()) {
				clearTimeout(timer);
				clearInterval(timer);
			}
			timers.clear();
		}
	};
}
