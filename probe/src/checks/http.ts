import http from 'node:http';
import https from 'node:https';
import { evaluateHttpAssertions } from './assertions.ts';
import { describeError, withRetries } from './errors.ts';
import { isSecretHeader, redactHeaders } from './redact.ts';
import { outcomeOf, type CheckResult, type HttpMonitor, type Timing } from './types.ts';

const MAX_REDIRECTS = 10;
const MAX_BODY_BYTES = 1024 * 1024; // assertions read the first 1 MiB

// What one hop sends; redirects change it (see nextHop).
type Outgoing = { method: string; headers: Record<string, string>; body?: string };
type Hop = { status: number; headers: http.IncomingHttpHeaders; body: string; timing: Timing };
type Attempt = {
	failed: boolean;
	latency: number;
	hop?: Hop;
	error?: string;
	assertions?: CheckResult['assertions'];
};

// One request on a fresh connection. Each mark is taken in the earliest callback that sees its
// event (first and last byte: a socket 'data' listener that runs before the HTTP parser), and the
// probe's own work is kept outside the marks, so a hop's phases sum to its time on the wire.
function request(url: URL, out: Outgoing, timeoutMs: number, budgetMs: number): Promise<Hop> {
	const client = url.protocol === 'https:' ? https : http;
	const { method, headers, body } = out;
	// setImmediate: sockets that are already readable get their marks before this request's setup
	// runs, and a finished response is processed after them (both matter with many checks in flight).
	return new Promise((resolve, reject) => setImmediate(start, resolve, reject));
	function start(resolve: (hop: Hop) => void, reject: (err: unknown) => void): void {
		const marks: { dns?: number; connect?: number; tls?: number; first?: number; last?: number } =
			{};
		// The start mark is taken in a tick queued before the request exists: it runs after all of
		// this request's setup below (headers written, timer, listeners) and immediately before the
		// tick in which Node issues the connect (an IP); for a name, the lookup was handed to the
		// resolver during setup and its answer cannot be seen before this tick. So a GC pause or
		// other work during setup is not counted, and nothing on the wire precedes the mark.
		let t0 = 0;
		process.nextTick(() => (t0 = performance.now()));
		let req: http.ClientRequest;
		try {
			req = client.request(url, { method, headers, agent: false });
		} catch (err) {
			// e.g. a header value with a forbidden character; this runs outside the Promise executor.
			return reject(err);
		}
		const timer = setTimeout(
			() => req.destroy(new Error(`timeout after ${timeoutMs} ms`)),
			budgetMs
		);
		req.on('socket', (socket) => {
			socket.once('lookup', () => (marks.dns = performance.now()));
			socket.once('connect', () => (marks.connect = performance.now()));
			socket.once('secureConnect', () => (marks.tls = performance.now()));
			socket.prependListener('data', () => {
				marks.last = performance.now();
				marks.first ??= marks.last;
			});
		});
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			let size = 0;
			res.on('data', (chunk: Buffer) => {
				if (size < MAX_BODY_BYTES) chunks.push(chunk);
				size += chunk.length;
			});
			res.on('end', () => {
				clearTimeout(timer);
				const timing = phases(t0, marks, performance.now());
				setImmediate(() =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString('utf8'),
						timing
					})
				);
			});
			res.on('error', reject);
		});
		req.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		req.end(body);
	}
}

// Phase durations from the marks; they sum to the hop's latency (last byte - t0). `now` stands in
// for a byte mark that never came (a response ended by the peer closing with no body).
export function phases(
	t0: number,
	marks: { dns?: number; connect?: number; tls?: number; first?: number; last?: number },
	now: number
): Timing {
	const end = marks.last ?? now;
	const first = marks.first ?? end;
	const handshake = marks.tls ?? marks.connect ?? marks.dns ?? t0;
	return {
		...(marks.dns !== undefined ? { dns: marks.dns - t0 } : {}),
		...(marks.connect !== undefined ? { connect: marks.connect - (marks.dns ?? t0) } : {}),
		...(marks.tls !== undefined ? { tls: marks.tls - (marks.connect ?? marks.dns ?? t0) } : {}),
		ttfb: first - handshake,
		transfer: end - first
	};
}

export const hopLatency = (t: Timing): number =>
	(t.dns ?? 0) + (t.connect ?? 0) + (t.tls ?? 0) + (t.ttfb ?? 0) + (t.transfer ?? 0);

// Headers that describe a body (fetch's "request-body-header names"), dropped with the body.
const BODY_HEADER = /^content-(type|encoding|language|location|length)$/i;

// The request a redirect leads to, as browsers and fetch do it: 303, and 301/302 after a POST,
// become a GET without body; 307/308 keep both. Once a redirect leaves the origin (scheme, host
// or port), secret headers (the redaction rule: Authorization, Cookie, API keys...) and a
// user-set Host (meant for the first origin; Node then sends the new one's) are not sent again,
// on that hop or any later one.
export function nextHop(out: Outgoing, status: number, from: URL, to: URL): Outgoing {
	let next = out;
	if (status === 303 || ((status === 301 || status === 302) && out.method === 'POST')) {
		const method = out.method === 'HEAD' ? 'HEAD' : 'GET';
		const headers = Object.fromEntries(
			Object.entries(out.headers).filter(([k]) => !BODY_HEADER.test(k))
		);
		next = { method, headers };
	}
	if (to.origin !== from.origin) {
		const headers = Object.fromEntries(
			Object.entries(next.headers).filter(([k]) => !isSecretHeader(k) && k.toLowerCase() !== 'host')
		);
		next = { ...next, headers };
	}
	return next;
}

// An attempt's latency is the sum of its hops' wire time: with redirects followed, every request
// counts, but not the probe's own work between them (parsing, assertions). Phase timings are the
// final hop's. A failed attempt reports the time until it failed, which the budget bounds.
async function attempt(m: HttpMonitor, budgetMs: number): Promise<Attempt> {
	const start = performance.now();
	let url = new URL(m.url);
	let out: Outgoing = {
		method: m.method,
		headers: Object.fromEntries(m.headers.map((h) => [h.key, h.value])),
		body: m.body !== '' && ['POST', 'PUT', 'PATCH'].includes(m.method) ? m.body : undefined
	};
	let latency = 0;
	try {
		for (let hops = 0; ; hops++) {
			const remaining = Math.max(1, budgetMs - (performance.now() - start));
			const hop = await request(url, out, m.timeout, remaining);
			latency += hopLatency(hop.timing);
			const location = hop.headers.location;
			if (
				m.follow_redirects &&
				hop.status >= 300 &&
				hop.status < 400 &&
				location &&
				hops < MAX_REDIRECTS
			) {
				const next = new URL(location, url);
				out = nextHop(out, hop.status, url, next);
				url = next;
				continue;
			}
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
