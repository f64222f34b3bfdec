import { checkDns } from './dns.ts';
import { checkGrpc } from './grpc.ts';
import { checkHttp } from './http.ts';
import { checkIcmp } from './icmp.ts';
import { capResult } from './limits.ts';
import { checkTcp } from './tcp.ts';
import type { CheckResult, ProbeMonitor } from './types.ts';

export type CheckOptions = { dnsServers?: string[] };

// Spec 2.4 allows `timeout` 0 (0 to 120000, default 45000). A zero budget could only ever fail, so
// every check type reads 0 as "not set": the default 45 s (also gRPC's default, spec 2.9).
export const DEFAULT_TIMEOUT_MS = 45_000;

function check(m: ProbeMonitor, opts: CheckOptions): Promise<CheckResult> {
	switch (m.type) {
		case 'http':
			return checkHttp(m);
		case 'tcp':
			return checkTcp(m);
		case 'dns':
			return checkDns(m, { servers: opts.dnsServers });
		case 'icmp':
			return checkIcmp(m);
		case 'grpc':
			return checkGrpc(m);
	}
}

// The one way the probe runs a check: it always resolves with a result the ingest server accepts,
// even when a check throws (a crashed check is an error result, never a missing one).
export async function runCheck(m: ProbeMonitor, opts: CheckOptions = {}): Promise<CheckResult> {
	const monitor = m.timeout > 0 ? m : { ...m, timeout: DEFAULT_TIMEOUT_MS };
	const startedAt = Date.now();
	try {
		return capResult(await check(monitor, opts));
	} catch (err) {
		return capResult({
			monitorId: m.id,
			type: m.type,
			startedAt,
			latency: 0,
			outcome: 'error',
			attempts: 1,
			error: `check crashed: ${err instanceof Error ? err.message : String(err)}`
		});
	}
}

export type * from './types.ts';
