import os from 'node:os';
import path from 'node:path';

export type ProbeConfig = {
	key: string;
	ingestUrl: string;
	outboxFile: string;
	dnsServers?: string[];
	concurrency: number;
};

export class ProbeConfigError extends Error {}

// Spec 2.2: SERVICE_KEY is required; SERVICE_TOKEN is an old name that is not read.
export function loadProbeConfig(env: NodeJS.ProcessEnv = process.env): ProbeConfig {
	if (!env.SERVICE_KEY) {
		const hint = env.SERVICE_TOKEN
			? ' (SERVICE_TOKEN is the old name and is not read: set SERVICE_KEY to the same value)'
			: '';
		throw new ProbeConfigError(
			`SERVICE_KEY is required: copy the key of your private location from the dashboard${hint}`
		);
	}
	const concurrency = Number(env.PROBE_CONCURRENCY || 50);
	if (!Number.isInteger(concurrency) || concurrency < 1)
		throw new ProbeConfigError('PROBE_CONCURRENCY must be a positive integer');
	return {
		key: env.SERVICE_KEY,
		ingestUrl: env.SERVICE_INGEST_URL || 'http://127.0.0.1:8081',
		outboxFile: env.PROBE_OUTBOX_FILE || path.join(os.tmpdir(), 'upstate-probe-outbox.jsonl'),
		dnsServers: env.PROBE_DNS_SERVERS
			? env.PROBE_DNS_SERVERS.split(',').map((s) => s.trim())
			: undefined,
		concurrency
	};
}
