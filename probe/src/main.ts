import { loadProbeConfig, ProbeConfigError } from './config.ts';
import { createProbe } from './probe.ts';

// The private-location agent: `SERVICE_KEY=... node probe/src/main.ts`.
try {
	const probe = createProbe({ config: loadProbeConfig() });
	await probe.start();
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			console.log(`[probe] stopping signal=${signal} pending=${probe.outbox.size}`);
			probe.stop();
			process.exit(0);
		});
	}
} catch (err) {
	console.error(
		err instanceof ProbeConfigError
			? err.message
			: `[probe] failed to start: ${(err as Error).message}`
	);
	process.exit(1);
}
