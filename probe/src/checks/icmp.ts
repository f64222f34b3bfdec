import { execFile } from 'node:child_process';
import { withRetries } from './errors.ts';
import { outcomeOf, type CheckResult, type IcmpMonitor } from './types.ts';

type Attempt = { failed: boolean; latency: number; packetLoss: number; error?: string };

// Node has no ICMP API and unprivileged ICMP sockets are often off, so the probe runs the
// system `ping` (iputils) and reads its summary.
export function parsePing(output: string): {
	transmitted: number;
	received: number;
	avg: number | null;
} {
	const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output);
	const rtt = /= [\d.]+\/([\d.]+)\/[\d.]+/.exec(output);
	return {
		transmitted: Number(counts?.[1] ?? 0),
		received: Number(counts?.[2] ?? 0),
		avg: rtt ? Number(rtt[1]) : null
	};
}

function ping(host: string, budgetMs: number): Promise<Attempt> {
	const deadline = Math.max(1, Math.ceil(budgetMs / 1000));
	return new Promise((resolve) => {
		execFile(
			'ping',
			['-n', '-c', '3', '-i', '0.2', '-w', String(deadline), host],
			{ timeout: Math.ceil(budgetMs) + 500 },
			(err, stdout, stderr) => {
				const { transmitted, received, avg } = parsePing(stdout);
				if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
					resolve({
						failed: true,
						latency: 0,
						packetLoss: 1,
						error: 'ping is not installed (install iputils-ping)'
					});
					return;
				}
				const packetLoss = transmitted ? 1 - received / transmitted : 1;
				if (!received || avg === null) {
					resolve({
						failed: true,
						latency: 0,
						packetLoss: 1,
						error: stderr.trim().split('\n')[0] || 'no echo reply (100% packet loss)'
					});
					return;
				}
				resolve({ failed: false, latency: avg, packetLoss });
			}
		);
	});
}

// ICMP check (spec 2.8): three echo requests; latency is their average; retry only when the
// whole check failed; degraded_at applies to the average.
export async function checkIcmp(m: IcmpMonitor): Promise<CheckResult> {
	const startedAt = Date.now();
	const { result, attempts } = await withRetries(m.retry, m.timeout, (remaining) =>
		ping(m.uri, remaining)
	);
	return {
		monitorId: m.id,
		type: 'icmp',
		startedAt,
		latency: result.latency,
		outcome: outcomeOf(m, result.failed, result.latency),
		attempts,
		error: result.error,
		packetLoss: Math.round(result.packetLoss * 1000) / 1000
	};
}
