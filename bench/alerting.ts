// `npm run bench`: alert latency, from a check result reaching the ingest server to the signed
// webhook arriving on 127.0.0.1 (ingest → quorum → forward to workflows → incident + outbox in
// one transaction → delivery worker → webhook). Prints, does not assert. Target: p99 < 1 s.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { IngestService } from '@upstate/proto/ingest';
import { toWireResult } from '../probe/src/wire.ts';
import { startAlertingStack } from '../server/test/alerting-stack.ts';

const pct = (sorted: number[], p: number) =>
	sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const transitions = Number(process.env.BENCH_ALERTS ?? 50);

const log = console.log;
console.log = (...args: unknown[]) => {
	if (!String(args[0]).startsWith('[')) log(...args); // the services' own one-line logs
};

const stack = await startAlertingStack({ targetUrl: 'http://127.0.0.1:9/unused' });
const client = createClient(
	IngestService,
	createConnectTransport({ baseUrl: stack.ingestUrl, httpVersion: '1.1' })
);
const headers = { authorization: `Bearer ${stack.key}` };
const times: number[] = [];
for (let i = 0; i < transitions; i++) {
	const failing = i % 2 === 0; // alert, recovery, alert, …: every result is a status change
	const before = stack.arrivals.length;
	const started = performance.now();
	await client.ingestResults(
		{
			results: [
				toWireResult({
					monitorId: stack.monitor.id,
					type: 'http',
					startedAt: Date.now(),
					latency: 5,
					outcome: failing ? 'error' : 'success',
					attempts: 1,
					statusCode: failing ? 500 : 200,
					error: failing ? 'HTTP 500' : undefined,
					resultId: randomUUID()
				})
			]
		},
		{ headers }
	);
	const deadline = started + 10_000;
	while (stack.arrivals.length === before && performance.now() < deadline)
		await new Promise((r) => setTimeout(r, 1));
	const arrived = stack.arrivals[before];
	if (arrived === undefined) throw new Error(`transition ${i}: no webhook within 10 s`);
	times.push(arrived - started);
}
await stack.close();
times.sort((a, b) => a - b);
log(
	`alert latency (result at ingest → webhook received, ${transitions} transitions, ${os.cpus().length} cores): p50=${pct(times, 50).toFixed(1)} ms p99=${pct(times, 99).toFixed(1)} ms max=${(times.at(-1) ?? NaN).toFixed(1)} ms (target p99 < 1000 ms)`
);
process.exit(0);
