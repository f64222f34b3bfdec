import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { withRetries } from './errors.ts';
import { splitHostPort } from './host-port.ts';
import { outcomeOf, type CheckResult, type GrpcMonitor, type Timing } from './types.ts';

type GrpcStatus = NonNullable<CheckResult['grpcStatus']>;
type Attempt = {
	failed: boolean;
	retryable: boolean;
	latency: number;
	grpcStatus: GrpcStatus;
	statusCode?: number;
	error?: string;
	timing: Timing;
};
type HealthClient = grpc.Client & {
	Check(
		req: { service: string },
		md: grpc.Metadata,
		opts: grpc.CallOptions,
		cb: (err: grpc.ServiceError | null, res?: { status: string | number }) => void
	): void;
};

const HealthClient = grpc.makeClientConstructor(
	healthService,
	'grpc.health.v1.Health'
) as unknown as new (
	target: string,
	creds: grpc.ChannelCredentials,
	options: grpc.ChannelOptions
) => HealthClient;

const SERVING_STATUS: Record<string, number> = {
	UNKNOWN: 0,
	SERVING: 1,
	NOT_SERVING: 2,
	SERVICE_UNKNOWN: 3
};
// Node's texts for a certificate that fails verification: self-signed, an unknown issuer, expired
// or not yet valid, a name mismatch. Any other TLS failure (a plaintext server answering a TLS
// hello: "wrong version number") is a connection failure, not a certificate one.
const CERT_ERROR =
	/self[- ]signed|unable to verify|unable to get (local )?issuer|certificate has expired|certificate is not yet valid|altnames|ERR_TLS_CERT_ALTNAME_INVALID/i;

type SecureConnector = ReturnType<grpc.ChannelCredentials['_createSecureConnector']>;
// When the channel began its TCP connect, when that connect completed and, over TLS, when the
// handshake finished.
type Marks = { start?: number; tcp?: number; tls?: number };

// grpc-js opens a connection in two steps inside its subchannel: `net.connect`, then the
// credentials' secure connector takes the connected socket (`tls.connect` with the channel's TLS
// options and servername, or nothing for h2c). Wrapping that connector marks both ends of the
// handshake on the very connection the health call then uses, with the monitor's own TLS
// settings, rather than timing a second pre-flight connection that the call never uses.
// `_createSecureConnector` is grpc-js's credentials extension point (underscore-named but in its
// published types); the TLS timing test fails if a release changes it. `_equals` only matters to
// the shared subchannel pool, which these channels do not use.
class TimedCredentials extends grpc.ChannelCredentials {
	readonly #inner: grpc.ChannelCredentials;
	readonly #marks: Marks;
	constructor(inner: grpc.ChannelCredentials, marks: Marks) {
		super();
		this.#inner = inner;
		this.#marks = marks;
	}
	_isSecure(): boolean {
		return this.#inner._isSecure();
	}
	_equals(other: grpc.ChannelCredentials): boolean {
		return other === this;
	}
	_createSecureConnector(
		...args: Parameters<grpc.ChannelCredentials['_createSecureConnector']>
	): SecureConnector {
		const connector = this.#inner._createSecureConnector(...args);
		const marks = this.#marks;
		const secure = this._isSecure();
		return {
			// Called with the socket as soon as its TCP connect has completed.
			connect: (socket) => {
				marks.tcp ??= performance.now();
				return connector.connect(socket).then((result) => {
					if (secure) marks.tls ??= performance.now();
					return result;
				});
			},
			// Called immediately before grpc-js's `net.connect`.
			waitForReady: () => {
				marks.start ??= performance.now();
				return connector.waitForReady();
			},
			getCallCredentials: () => connector.getCallCredentials(),
			destroy: () => connector.destroy()
		};
	}
}

// Phases of one attempt, which sum to its latency like the http check's: dns; connect, from
// grpc-js's `net.connect` to an established TCP connection; tls, the handshake, only over TLS;
// ttfb, from there to the answer (the HTTP/2 preface and settings, then the call). Creating the
// channel between the address and `net.connect` (in-process, about a millisecond) is the probe's
// own work and is left out of both, as the http check leaves out its request setup. A phase the
// attempt never reached is absent; the one it failed in (refused, a failed handshake) runs to
// `end`.
function grpcPhases(
	t0: number,
	dnsAt: number,
	marks: Marks,
	end: number,
	secure: boolean
): Pick<Attempt, 'timing' | 'latency'> {
	const start = marks.start ?? dnsAt;
	const latency = dnsAt - t0 + (end - start);
	const timing: Timing = { dns: dnsAt - t0, connect: (marks.tcp ?? end) - start };
	if (marks.tcp === undefined) return { timing, latency };
	if (!secure) return { timing: { ...timing, ttfb: end - marks.tcp }, latency };
	timing.tls = (marks.tls ?? end) - marks.tcp;
	if (marks.tls !== undefined) timing.ttfb = end - marks.tls;
	return { timing, latency };
}

function credentials(tls: GrpcMonitor['tls']): grpc.ChannelCredentials {
	if (tls === 'plaintext') return grpc.credentials.createInsecure();
	if (tls === 'skip-verify')
		return grpc.credentials.createSsl(null, null, null, {
			rejectUnauthorized: false,
			checkServerIdentity: () => undefined
		});
	return grpc.credentials.createSsl();
}

// One Health/Check on a fresh channel; the phase timings are grpcPhases'.
async function attempt(
	m: GrpcMonitor,
	metadata: grpc.Metadata,
	budgetMs: number
): Promise<Attempt> {
	const t0 = performance.now();
	const { host, port } = splitHostPort(m.uri);
	const marks: Marks = {};
	const secure = m.tls !== 'plaintext';
	let address = host;
	try {
		if (!isIP(host)) address = (await lookup(host)).address;
	} catch {
		return {
			failed: true,
			retryable: true,
			latency: performance.now() - t0,
			grpcStatus: 'UNAVAILABLE',
			error: `DNS lookup failed for ${host}`,
			timing: {}
		};
	}
	const dnsAt = performance.now();
	const target = `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
	const client = new HealthClient(target, new TimedCredentials(credentials(m.tls), marks), {
		'grpc.use_local_subchannel_pool': 1,
		'grpc.default_authority': `${host}:${port}`,
		'grpc.ssl_target_name_override': host,
		'grpc.enable_retries': 0
	});
	const deadline = new Date(Date.now() + Math.max(1, budgetMs - (performance.now() - t0)));
	try {
		const state = await connectOrFail(client.getChannel(), deadline);
		if (state === 'timeout') {
			return {
				failed: true,
				retryable: false,
				grpcStatus: 'DEADLINE_EXCEEDED',
				error: 'no connection within the timeout',
				...grpcPhases(t0, dnsAt, marks, performance.now(), secure)
			};
		}
		// On a failed connection the call below fails at once with UNAVAILABLE and the reason
		// (refused, TLS, h2c against TLS): no health request is sent.
		const answer = await new Promise<{ err: grpc.ServiceError | null; status?: string | number }>(
			(resolve) =>
				client.Check({ service: m.service }, metadata, { deadline }, (err, res) =>
					resolve({ err, status: res?.status })
				)
		);
		const phases = grpcPhases(t0, dnsAt, marks, performance.now(), secure);
		if (answer.err) return { ...fromCallError(answer.err, m.service), ...phases };
		const status =
			typeof answer.status === 'number'
				? answer.status
				: (SERVING_STATUS[String(answer.status)] ?? 0);
		if (status === 1)
			return {
				failed: false,
				retryable: false,
				grpcStatus: 'SERVING',
				statusCode: 1,
				...phases
			};
		if (status === 3)
			return {
				failed: true,
				retryable: false,
				grpcStatus: 'SERVICE_UNKNOWN',
				statusCode: 3,
				error: `unknown service ${JSON.stringify(m.service)}`,
				...phases
			};
		return {
			failed: true,
			retryable: false,
			grpcStatus: 'NOT_SERVING',
			statusCode: status,
			error: 'NOT_SERVING',
			...phases
		};
	} finally {
		client.close();
	}
}

// Drives the fresh channel until it is READY or has failed, without grpc-js's own reconnect wait.
function connectOrFail(
	channel: ReturnType<grpc.Client['getChannel']>,
	deadline: Date
): Promise<'ready' | 'failed' | 'timeout'> {
	return new Promise((resolve) => {
		const step = () => {
			const state = channel.getConnectivityState(true);
			if (state === grpc.connectivityState.READY) return resolve('ready');
			if (
				state === grpc.connectivityState.TRANSIENT_FAILURE ||
				state === grpc.connectivityState.SHUTDOWN
			)
				return resolve('failed');
			channel.watchConnectivityState(state, deadline, (err) => (err ? resolve('timeout') : step()));
		};
		step();
	});
}

// Once the server has answered, the result stands; only connection failures are retried (3.1).
// NOT_FOUND is how health servers answer an unknown name: the same SERVICE_UNKNOWN, and the same
// message, as the SERVICE_UNKNOWN serving status.
function fromCallError(
	err: grpc.ServiceError,
	service: string
): Omit<Attempt, 'latency' | 'timing'> {
	switch (err.code) {
		case grpc.status.NOT_FOUND:
			return {
				failed: true,
				retryable: false,
				grpcStatus: 'SERVICE_UNKNOWN',
				error: `unknown service ${JSON.stringify(service)}`
			};
		case grpc.status.UNIMPLEMENTED:
			return {
				failed: true,
				retryable: false,
				grpcStatus: 'UNIMPLEMENTED',
				error: 'the server has no health service (UNIMPLEMENTED)'
			};
		case grpc.status.DEADLINE_EXCEEDED:
			return {
				failed: true,
				retryable: false,
				grpcStatus: 'DEADLINE_EXCEEDED',
				error: 'no answer within the timeout'
			};
		case grpc.status.UNAVAILABLE:
			return {
				failed: true,
				retryable: true,
				grpcStatus: 'UNAVAILABLE',
				error: CERT_ERROR.test(err.details)
					? 'certificate verification failed'
					: 'connection failed'
			};
		default:
			return {
				failed: true,
				retryable: false,
				grpcStatus: 'UNAVAILABLE',
				error: `health check failed (${grpc.status[err.code]})`
			};
	}
}

// grpc-js throws on a key it cannot send (`x trace`, or `x-trace-bin`, whose value must be
// binary) or a value with a control character; that is the monitor's setup, not the server's fault.
function toMetadata(pairs: GrpcMonitor['metadata']): grpc.Metadata | { error: string } {
	const metadata = new grpc.Metadata();
	for (const { key, value } of pairs) {
		try {
			metadata.add(key, value);
		} catch {
			// Our own words: grpc-js's message for a bad value quotes the value (maybe a secret).
			const name = JSON.stringify(key);
			if (/-bin$/i.test(key))
				return { error: `invalid metadata key ${name}: keys ending in -bin carry binary values` };
			if (!/^[0-9a-z_.-]+$/i.test(key))
				return {
					error: `invalid metadata key ${name}: use only letters, digits, '-', '_' and '.'`
				};
			return { error: `invalid metadata value for ${name}: control characters are not allowed` };
		}
	}
	return metadata;
}

// gRPC check (spec 2.9, 3.1).
export async function checkGrpc(m: GrpcMonitor): Promise<CheckResult> {
	const startedAt = Date.now();
	const metadata = toMetadata(m.metadata);
	if (!(metadata instanceof grpc.Metadata))
		return {
			monitorId: m.id,
			type: 'grpc',
			startedAt,
			latency: 0,
			outcome: 'error',
			attempts: 1,
			error: metadata.error
		};
	const { result, attempts } = await withRetries(m.retry, m.timeout, (remaining) =>
		attempt(m, metadata, remaining)
	);
	const latency = Math.round(result.latency * 100) / 100;
	return {
		monitorId: m.id,
		type: 'grpc',
		startedAt,
		latency,
		outcome: outcomeOf(m, result.failed, latency),
		attempts,
		statusCode: result.statusCode,
		grpcStatus: result.grpcStatus,
		error: result.error,
		timing: result.timing
	};
}
