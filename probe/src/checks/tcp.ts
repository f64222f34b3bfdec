import net from 'node:net';
import { describeError, withRetries } from './errors.ts';
import { splitHostPort } from './host-port.ts';
import { outcomeOf, type CheckResult, type TcpMonitor, type Timing } from './types.ts';

type Attempt = { failed: boolean; latency: number; timing?: Timing; error?: string };

function connect(host: string, port: number, budgetMs: number): Promise<Attempt> {
	const t0 = performance.now();
	return new Promise((resolve) => {
		let tDns: number | undefined;
		const socket = net.connect({ host, port });
		const finish = (result: Attempt) => {
			clearTimeout(timer);
			socket.destroy();
			resolve(result);
		};
		const timer = setTimeout(
			() =>
				finish({
					failed: true,
					latency: performance.now() - t0,
					error: `timeout after ${Math.round(budgetMs)} ms`
				}),
			budgetMs
		);
		socket.once('lookup', () => (tDns = performance.now()));
		socket.once('connect', () => {
			const now = performance.now();
			finish({
				failed: false,
				latency: now - t0,
				timing: { ...(tDns !== undefined ? { dns: tDns - t0 } : {}), connect: now - (tDns ?? t0) }
			});
		});
		socket.once('error', (err) =>
			finish({ failed: true, latency: performance.now() - t0, error: describeError(err) })
		);
	});
}

// TCP check (spec 2.6): connect within the timeout; slow connects are degraded; retries apply to
// failed connection attempts.
export async function checkTcp(m: TcpMonitor): Promise<CheckResult> {
	const startedAt = Date.now();
	const { host, port } = splitHostPort(m.uri);
	const { result, attempts } = await withRetries(m.retry, m.timeout, (remaining) =>
		connect(host, port, remaining)
	);
	const latency = Math.round(result.latency * 100) / 100;
	return {
		monitorId: m.id,
		type: 'tcp',
		startedAt,
		latency,
		outcome: outcomeOf(m, result.failed, latency),
		attempts,
		error: result.error,
		timing: result.timing
	};
}
