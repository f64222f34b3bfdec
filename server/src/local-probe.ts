import path from 'node:path';
import { createProbe } from '../../probe/src/probe.ts';
import type { Upstate } from './app.ts';
import { ensureLocalLocations } from './domain/private-location/index.ts';

// The all-in-one process's built-in probe: one real probe per workspace's "Local" location,
// talking to this process's ingest server over HTTP like any deployed probe. New workspaces and
// monitors are picked up every LOCAL_PROBE_INTERVAL_MS (30 s): local and cheap.
export function startLocalProbes(args: { upstate: Upstate }): { stop(): void } {
	const { upstate } = args;
	const running = new Map<number, ReturnType<typeof createProbe>>();
	const ingestUrl = `http://127.0.0.1:${upstate.config.ports.ingest}`;

	async function discover(): Promise<void> {
		const locations = await ensureLocalLocations({ db: upstate.db });
		for (const loc of locations) {
			if (running.has(loc.id)) continue;
			const probe = createProbe({
				config: {
					key: loc.token,
					ingestUrl,
					concurrency: 20,
					outboxFile: path.join(upstate.config.dataDir, 'probe', `local-${loc.id}.jsonl`)
				},
				refreshMs: upstate.config.localProbeIntervalMs
			});
			running.set(loc.id, probe);
			await probe.start();
		}
	}

	const run = () =>
		discover().catch((err: unknown) =>
			console.error(`[local-probe] discovery failed: ${(err as Error).message}`)
		);
	void run();
	const timer = setInterval(run, upstate.config.localProbeIntervalMs);
	return {
		stop() {
			clearInterval(timer);
			for (const p of running.values()) p.stop();
		}
	};
}
