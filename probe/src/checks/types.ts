// What the probe needs of a monitor (spec 2.4-2.9, the server's field names) and what a check
// produces. The ingest server sends the first and stores the second.
export type KeyValue = { key: string; value: string };
export type Comparator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';
export type StringComparator = Comparator | 'contains' | 'not_contains' | 'empty' | 'not_empty';

type Common = {
	id: number;
	name: string;
	periodicity: '30s' | '1m' | '5m' | '10m' | '30m' | '1h';
	timeout: number; // ms, budget of the whole check including retries
	degraded_at: number | null; // ms
	retry: number;
	otel?: { endpoint: string; headers: KeyValue[] }; // OTLP/HTTP metrics export, when the plan has it
};

export type HttpMonitor = Common & {
	type: 'http';
	url: string;
	method: string;
	body: string;
	follow_redirects: boolean;
	headers: KeyValue[];
	status_code_assertions: Array<{ target: number; comparator: Comparator }>;
	body_assertions: Array<{ target: string; comparator: StringComparator }>;
	header_assertions: Array<{ key: string; target: string; comparator: StringComparator }>;
};
export type TcpMonitor = Common & { type: 'tcp'; uri: string };
export type DnsMonitor = Common & {
	type: 'dns';
	uri: string;
	record_assertions: Array<{
		record: 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT';
		target: string;
		comparator: 'eq' | 'neq' | 'contains' | 'not_contains';
	}>;
};
export type IcmpMonitor = Common & { type: 'icmp'; uri: string };
export type GrpcMonitor = Common & {
	type: 'grpc';
	uri: string;
	service: string;
	tls: 'verify' | 'skip-verify' | 'plaintext';
	metadata: KeyValue[];
};
export type ProbeMonitor = HttpMonitor | TcpMonitor | DnsMonitor | IcmpMonitor | GrpcMonitor;

export type Outcome = 'success' | 'degraded' | 'error';

// Phase durations in ms; a phase that did not happen (no TLS, a reused address) is absent.
export type Timing = {
	dns?: number;
	connect?: number;
	tls?: number;
	ttfb?: number;
	transfer?: number;
};

export type AssertionResult = {
	kind: 'status' | 'body' | 'header' | 'record';
	description: string;
	passed: boolean;
	actual: string;
};

export type CheckResult = {
	monitorId: number;
	type: ProbeMonitor['type'];
	startedAt: number; // epoch ms
	latency: number; // ms of the last attempt
	outcome: Outcome;
	attempts: number;
	statusCode?: number; // http status, or the grpc health status number
	error?: string;
	timing?: Timing;
	headers?: Record<string, string>; // response headers, secrets redacted
	assertions?: AssertionResult[];
	grpcStatus?:
		| 'SERVING'
		| 'NOT_SERVING'
		| 'SERVICE_UNKNOWN'
		| 'UNIMPLEMENTED'
		| 'DEADLINE_EXCEEDED'
		| 'UNAVAILABLE';
	packetLoss?: number; // icmp, 0..1
};

// A degraded threshold the user did not set is computed as half the timeout.
export function degradedThreshold(m: { degraded_at: number | null; timeout: number }): number {
	return m.degraded_at ?? Math.round(m.timeout / 2);
}

// Failed attempts are errors; a success slower than the threshold is degraded.
export function outcomeOf(
	m: { degraded_at: number | null; timeout: number },
	failed: boolean,
	latency: number
): Outcome {
	if (failed) return 'error';
	return latency > degradedThreshold(m) ? 'degraded' : 'success';
}
