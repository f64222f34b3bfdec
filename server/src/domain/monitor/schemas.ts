import { isIP } from 'node:net';
import { z } from 'zod';
import { PERIODICITIES } from '../limits.ts';
import { REGIONS } from '../regions.ts';
import { optionalFields } from '../schema-helpers.ts';

// Monitor shapes and bounds of spec 2.4-2.9 and 8. Field names are the spec's.
export const MONITOR_TYPES = ['http', 'tcp', 'dns', 'icmp', 'grpc'] as const;
export const HTTP_METHODS = [
	'GET',
	'POST',
	'HEAD',
	'PUT',
	'PATCH',
	'DELETE',
	'OPTIONS',
	'TRACE',
	'CONNECT'
] as const;
export const NUMBER_COMPARATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;
export const STRING_COMPARATORS = [
	'contains',
	'not_contains',
	'eq',
	'neq',
	'empty',
	'not_empty',
	'gt',
	'gte',
	'lt',
	'lte'
] as const;
export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] as const;
export const GRPC_TLS = ['verify', 'skip-verify', 'plaintext'] as const;

export const KeyValue = z.object({ key: z.string().min(1).max(256), value: z.string().max(4096) });
export type KeyValue = z.infer<typeof KeyValue>;

// What the probe can send: an invalid header name or a CR/LF in a value makes its request
// throw, so such input is refused here (RFC 9110 5.1 token names; Node's field-value rule).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
export const HttpHeader = z.object({
	key: KeyValue.shape.key.regex(HEADER_NAME, {
		error: "must be a header name: letters, digits and !#$%&'*+-.^_`|~ only, no spaces or colons"
	}),
	value: KeyValue.shape.value.regex(HEADER_VALUE, {
		error: 'must not contain line breaks (CR/LF) or other control characters'
	})
});

// gRPC metadata keys are lowercase `[0-9a-z-_.]` (gRPC over HTTP/2); `-bin` keys carry binary
// values, which a text field cannot hold, and `grpc-` keys are reserved for gRPC itself.
export const GrpcMetadata = z.object({
	key: KeyValue.shape.key
		.regex(/^[0-9a-z_.-]+$/, {
			error: 'must be a lowercase gRPC metadata key: a-z, 0-9, "-", "_" and "." only'
		})
		.refine((k) => !k.endsWith('-bin'), {
			error: 'binary metadata ("-bin" keys) is not supported: use a text key'
		})
		.refine((k) => !k.startsWith('grpc-'), { error: '"grpc-" keys are reserved by gRPC' }),
	value: KeyValue.shape.value.regex(/^[\x20-\x7e]*$/, {
		error: 'must be printable ASCII (no line breaks or control characters)'
	})
});

export const StatusCodeAssertion = z.object({
	target: z.number().int().min(100).max(599),
	comparator: z.enum(NUMBER_COMPARATORS)
});
export const BodyAssertion = z.object({
	target: z.string(),
	comparator: z.enum(STRING_COMPARATORS)
});
export const HeaderAssertion = z.object({
	key: z.string().min(1),
	target: z.string(),
	comparator: z.enum(STRING_COMPARATORS)
});
export const RecordAssertion = z.object({
	record: z.enum(RECORD_TYPES),
	target: z.string(),
	comparator: z.enum(['eq', 'neq', 'contains', 'not_contains'])
});
export type StatusCodeAssertion = z.infer<typeof StatusCodeAssertion>;
export type BodyAssertion = z.infer<typeof BodyAssertion>;
export type HeaderAssertion = z.infer<typeof HeaderAssertion>;
export type RecordAssertion = z.infer<typeof RecordAssertion>;

const HOSTNAME =
	/^(?=.{1,253}$)([A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$/;

function isHost(host: string): boolean {
	return HOSTNAME.test(host) || isIP(host) !== 0;
}

// `host:port`, IPv6 in brackets, no scheme (spec 2.6, 2.9).
function isHostPort(value: string): boolean {
	if (value.includes('://')) return false;
	const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value);
	if (!m) return false;
	const port = Number(m[3]);
	if (port < 1 || port > 65535) return false;
	return m[1] ? isIP(m[1]) === 6 : isHost(m[2]);
}

const hostPort = z
	.string()
	.max(2048)
	.refine((v) => !v.includes('://'), {
		error: 'no scheme allowed: write host:port, not grpc:// or https://'
	})
	.refine(isHostPort, { error: 'must be host:port with a port (IPv6 in brackets)' });

const common = {
	name: z.string().min(1).max(256),
	periodicity: z.enum(PERIODICITIES),
	timeout: z.number().int().min(0).max(120000).default(45000),
	degraded_at: z.number().int().min(0).max(120000).nullable().default(null),
	retry: z.number().int().min(0).max(10).default(3),
	active: z.boolean().default(false),
	public: z.boolean().default(false),
	description: z.string().max(1024).default(''),
	regions: z
		.array(z.enum(REGIONS))
		.refine((r) => new Set(r).size === r.length, { error: 'regions must not repeat' })
		.optional(),
	tags: z
		.array(z.string().trim().min(1).max(64))
		.max(20)
		.refine((t) => new Set(t).size === t.length, { error: 'tags must not repeat' })
		.default([]),
	open_telemetry: z
		.object({
			endpoint: z
				.url({ protocol: /^https?$/, error: 'must be an http(s) OTLP/HTTP URL' })
				.max(2048),
			headers: z.array(HttpHeader).max(20).default([])
		})
		.nullable()
		.optional()
};

export const HttpMonitorFields = z.object({
	type: z.literal('http'),
	...common,
	url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048),
	method: z.enum(HTTP_METHODS).default('GET'),
	body: z.string().max(65536).default(''),
	follow_redirects: z.boolean().default(true),
	headers: z.array(HttpHeader).max(20).default([]),
	status_code_assertions: z.array(StatusCodeAssertion).max(10).default([]),
	body_assertions: z.array(BodyAssertion).max(10).default([]),
	header_assertions: z.array(HeaderAssertion).max(10).default([])
});

export const TcpMonitorFields = z.object({ type: z.literal('tcp'), ...common, uri: hostPort });

export const DnsMonitorFields = z.object({
	type: z.literal('dns'),
	...common,
	uri: z
		.string()
		.max(2048)
		.refine((v) => HOSTNAME.test(v), { error: 'must be a domain name' }),
	record_assertions: z.array(RecordAssertion).max(10).default([])
});

export const IcmpMonitorFields = z.object({
	type: z.literal('icmp'),
	...common,
	uri: z
		.string()
		.max(2048)
		.refine(isHost, { error: 'must be a host name or IP address without a port' })
});

export const GrpcMonitorFields = z.object({
	type: z.literal('grpc'),
	...common,
	uri: hostPort,
	service: z.string().max(1024).default(''),
	tls: z.enum(GRPC_TLS).default('verify'),
	metadata: z.array(GrpcMetadata).max(20).default([])
});

// Strict: a misspelt or other type's field is refused by name instead of silently dropped (a
// `periodicty` typo would otherwise create a monitor on the default schedule).
export const CreateMonitorInput = z.discriminatedUnion('type', [
	HttpMonitorFields.strict(),
	TcpMonitorFields.strict(),
	DnsMonitorFields.strict(),
	IcmpMonitorFields.strict(),
	GrpcMonitorFields.strict()
]);
export type CreateMonitorInput = z.input<typeof CreateMonitorInput>;
export type MonitorFields = z.output<typeof CreateMonitorInput>;

// Update: any field of any type may be sent (defaults dropped, so only what is sent changes);
// fields of another type are rejected by name, and the merged monitor is validated whole.
export const UpdateMonitorInput = z
	.object({
		monitorId: z.number().int().positive(),
		...optionalFields(HttpMonitorFields.omit({ type: true }).shape),
		...optionalFields(DnsMonitorFields.pick({ record_assertions: true }).shape),
		...optionalFields(GrpcMonitorFields.pick({ service: true, tls: true, metadata: true }).shape),
		uri: z.string().max(2048).optional()
	})
	.strict();
export type UpdateMonitorInput = z.input<typeof UpdateMonitorInput>;

export const MonitorIdInput = z.object({ monitorId: z.number().int().positive() });
export type MonitorIdInput = z.infer<typeof MonitorIdInput>;

export const ListMonitorsInput = z
	.object({
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(50).default(50)
	})
	.default({ page: 1, perPage: 50 });
export type ListMonitorsInput = z.input<typeof ListMonitorsInput>;

// The dashboard's list: the same pages, narrowed by a search over name and target, the
// current state (`paused` = not active), the type and a tag (exact, one of the monitor's tags).
export const MONITOR_STATES = ['active', 'degraded', 'error', 'unknown', 'paused'] as const;
export const SearchMonitorsInput = z
	.object({
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(50).default(50),
		search: z.string().trim().max(256).optional(),
		state: z.enum(MONITOR_STATES).optional(),
		type: z.enum(MONITOR_TYPES).optional(),
		tag: z.string().trim().min(1).max(64).optional()
	})
	.strict();
export type SearchMonitorsInput = z.input<typeof SearchMonitorsInput>;

// The workspace's tags, for the list's tag filter.
export const MonitorTagsOutput = z.object({ tags: z.array(z.string()) });
export type MonitorTagsOutput = z.infer<typeof MonitorTagsOutput>;

export const Pagination = z.object({
	page: z.number(),
	perPage: z.number(),
	totalSize: z.number(),
	totalPages: z.number()
});

export const MonitorOutput = z.object({
	id: z.number(),
	type: z.enum(MONITOR_TYPES),
	name: z.string(),
	description: z.string(),
	periodicity: z.enum(PERIODICITIES),
	timeout: z.number(),
	degraded_at: z.number().nullable(),
	retry: z.number(),
	active: z.boolean(),
	public: z.boolean(),
	regions: z.array(z.string()),
	tags: z.array(z.string()),
	status: z.enum(['active', 'degraded', 'error', 'unknown']),
	open_telemetry: z.object({ endpoint: z.string(), headers: z.array(KeyValue) }).nullable(),
	private_location_ids: z.array(z.number()),
	notification_channel_ids: z.array(z.number()),
	activeIncidentCount: z.number(),
	url: z.string().optional(),
	method: z.enum(HTTP_METHODS).optional(),
	body: z.string().optional(),
	follow_redirects: z.boolean().optional(),
	headers: z.array(KeyValue).optional(),
	status_code_assertions: z.array(StatusCodeAssertion).optional(),
	body_assertions: z.array(BodyAssertion).optional(),
	header_assertions: z.array(HeaderAssertion).optional(),
	uri: z.string().optional(),
	record_assertions: z.array(RecordAssertion).optional(),
	service: z.string().optional(),
	tls: z.enum(GRPC_TLS).optional(),
	metadata: z.array(KeyValue).optional(),
	created_at: z.string(),
	updated_at: z.string()
});
export type MonitorOutput = z.infer<typeof MonitorOutput>;

export const MonitorListOutput = z.object({ data: z.array(MonitorOutput), pagination: Pagination });
export type MonitorListOutput = z.infer<typeof MonitorListOutput>;
