// `npm run bench`: figures for this machine (issue 3). Prints, does not assert.
import os from 'node:os';
import { latencyAccuracy } from './latency-accuracy.ts';
import { probeScheduling } from './probe-scheduling.ts';
import { store } from './store.ts';

console.log(
	`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`
);
await latencyAccuracy(50, 200, { kind: 'lockstep', inFlight: 1 });
await latencyAccuracy(50, 200, { kind: 'lockstep', inFlight: 10 });
await latencyAccuracy(50, 400, { kind: 'spread', monitors: 40, periodMs: 1000 });
// BENCH_ONLY=latency stops after the latency figures (seconds instead of minutes).
if (process.env.BENCH_ONLY === 'latency') process.exit(0);
// BENCH_MONITORS= (empty) skips the scheduling runs.
for (const size of (process.env.BENCH_MONITORS ?? '1000,10000').split(',').filter(Boolean))
	await probeScheduling(Number(size), Number(process.env.BENCH_SCHEDULE_SECONDS ?? 75));
await store(
	Number(process.env.BENCH_RESULTS ?? 1_000_000),
	100,
	Number(process.env.BENCH_SENDERS ?? 4)
);
