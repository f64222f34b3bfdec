import { loadProbeConfig } from '../src/config.ts';
import { createProbe } from '../src/probe.ts';

// The probe as a process for crash tests: the real probe with every monitor every
// TEST_PERIOD_MS, and one `produced result=<id>` line once each result is in the outbox.
const probe = createProbe({
	config: loadProbeConfig(),
	periodOf: () => Number(process.env.TEST_PERIOD_MS || 50),
	flushEveryMs: 100
});
const push = probe.outbox.push.bind(probe.outbox);
probe.outbox.push = (result) => {
	push(result);
	console.log(`produced result=${result.resultId}`);
};
await probe.start();
process.once('SIGTERM', () => {
	probe.stop();
	process.exit(0);
});
