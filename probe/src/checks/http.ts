import http from 'node:http';
import https from 'node:https';
import { evaluateHttpAssertions } from './assertions.ts';
import { describeError, withRetries } from './errors.ts';
import { redactHeaders } from './redact.ts';
import { outcomeOf, type CheckResult, type HttpMonitor, type Timing } from './types.ts';

const MAX_REDIRECTS = 10;
const MAX_BODY_BYTES = 1024 * 1024; // assertions read the first 1 MiB

type Hop = { status: number; headers: http.IncomingHttpHeaders; body: string; timing: Timing };
type Attempt = {
	failed: boolean;
	latency: number;
	hop?: Hop;
	error?: string;
	assertions?: CheckResult['assertions'];
};

// One request on a fresh connection, timing each phase from socket events.
function request(url: URL, m: HttpMonitor, budgetMs: number): Promise<Hop> {
	return new Promise((resolve, reject) => {
		const t0 = performance.now();
		const marks: { dns?: number; connect?: number; tls?: number; ttfb?: number } = {};
		const client = url.protocol === 'https:' ? https : http;
		const headers = Object.fromEntries(m.headers.map((h) => [h.key, h.value]));
		const hasBody = m.body !== '' && ['POST', 'PUT', 'PATCH'].includes(m.method);
		const req = client.request(url, { method: m.method, headers, agent: false });
		const timer = setTimeout(
			() => req.destroy(new Error(`timeout after ${m.timeout} ms`)),
			budgetMs
		);
		req.on('socket', (socket) => {
			socket.once('lookup', () => (marks.dns = performance.now()));
			socket.once('connect', () => (marks.connect = performance.now()));
			socket.once('secureConnect', () => (marks.tls = performance.now()));
		});
		req.on('response', (res) => {
			marks.ttfb = performance.now();
			const chunks: Buffer[] = [];
			let size = 0;
			res.on('data', (chunk: Buffer) => {
				if (size < MAX_BODY_BYTES) chunks.push(chunk);
				size += chunk.length;
			});
			res.on('end', () => {
				clearTimeout(timer);
				const end = performance.now();
				const connectStart = marks.dns ?? t0;
				const afterHandshake = marks.tls ?? marks.connect ?? t0;
				const timing: Timing = {
					...(marks.dns !== undefined ? { dns: marks.dns - t0 } : {}),
					...(marks.connect !== undefined ? { connect: marks.connect - connectStart } : {}),
					...(marks.tls !== undefined && marks.connect !== undefined
						? { tls: marks.tls - marks.connect }
						: {}),
					ttfb: (marks.ttfb ?? end) - afterHandshake,
					transfer: end - (marks.ttfb ?? end)
				};
				resolve({
					status: res.statusCode ?? 0,
					headers: res.headers,
					body: Buffer.concat(chunks).toString('utf8'),
					timing
				});
			});
			res.on('error', reject);
		});
		req.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		req.end(hasBody ? m.body : undefined);
	});
}

async function attempt(m: HttpMonitor, budgetMs: number): Promise<Attempt> {
	const start = performance.now();
	let url = new URL(m.url);
	try {
		for (let hops = 0; ; hops++) {
			const hop = await request(url, m, Math.max(1, budgetMs - (performance.now() - start)));
			const location = hop.headers.location;
			if (
				m.follow_redirects &&
				hop.status >= 300 &&
				hop.status < 400 &&
				location &&
				hops < MAX_REDIRECTS
			) {
				url = new URL(location, url);
				continue;
			}
			const latency = performance.now() - start;
			const headers = Object.fromEntries(
				Object.entries(hop.headers).map(([k, v]) => [
					k,
					Array.isArray(v) ? v.join(', ') : (v ?? '')
				])
			);
			const assertions = evaluateHttpAssertions(m, { status: hop.status, body: hop.body, headers });
			const failedAssertion = assertions.find((a) => !a.passed);
			return {
				failed: failedAssertion !== undefined,
				latency,
				hop,
				assertions,
				error: failedAssertion
					? `assertion failed: ${failedAssertion.description} (got ${failedAssertion.actual})`
					: undefined
			};
		}
	} catch (err) {
		return { failed: true, latency: performance.now() - start, error: describeError(err) };
	}
}

// HTTP check (spec 2.5): timeout is the budget of the whole check, retries included.
export async function checkHttp(m: HttpMonitor): Promise<CheckResult> {
	const startedAt = Date.now();
	const { result, attempts } = await withRetries(m.retry, m.timeout, (remaining) =>
		attempt(m, remaining)
	);
	const latency = Math.round(result.latency * 100) / 100;
	return {
		monitorId: m.id,
		type: 'http',
		startedAt,
		latency,
		outcome: outcomeOf(m, result.failed, latency),
		attempts,
		statusCode: result.hop?.status,
		error: result.error,
		timing: result.hop?.timing,
		headers: result.hop ? redactHeaders(result.hop.headers) : undefined,
		assertions: result.assertions
	};
}
