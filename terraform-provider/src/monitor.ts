import { isDeepStrictEqual } from 'node:util';
import { UNKNOWN, type Value } from './codec.ts';
import { ImportError, notFound, numericId, orNull, type Managed } from './resource.ts';
import { complete, listOf, obj, setOf, type Attr, type Block } from './schema.ts';

// upstate_monitor: HTTP, TCP, DNS and ICMP monitors (spec 2.x: no gRPC monitors here). The
// attributes are the /rpc Monitor fields; the server's zod schema validates them, so nothing
// here repeats its rules: what it refuses comes back as a diagnostic on the attribute.
export const MANAGED_TYPES = ['http', 'tcp', 'dns', 'icmp'];

const KV = obj({ key: 'string', value: 'string' });
type Row = Record<string, Value>;

// Server defaults (server/src/domain/monitor/schemas.ts), filled at plan time so the plan
// shows what apply will store; `null` for a type that has no such field.
const DEFAULTS: Record<string, (type: Value) => Value> = {
	description: () => '',
	timeout: () => 45000,
	retry: () => 3,
	active: () => false,
	public: () => false,
	method: (t) => (t === 'http' ? 'GET' : null),
	body: (t) => (t === 'http' ? '' : null),
	follow_redirects: (t) => (t === 'http' ? true : null)
};

const OTEL_ATTRS: Attr[] = [
	{ name: 'endpoint', type: 'string', required: true, description: 'OTLP/HTTP endpoint URL' },
	{ name: 'headers', type: listOf(KV), optional: true, description: 'headers sent to it' }
];

export const MONITOR_ATTRS: Attr[] = [
	{ name: 'id', type: 'string', computed: true, description: 'The monitor id' },
	{
		name: 'type',
		type: 'string',
		required: true,
		description: 'http, tcp, dns or icmp (changing it replaces the monitor)'
	},
	{ name: 'name', type: 'string', required: true, description: 'Name, 1-256 characters' },
	{
		name: 'periodicity',
		type: 'string',
		required: true,
		description: '30s, 1m, 5m, 10m, 30m or 1h'
	},
	{
		name: 'description',
		type: 'string',
		optional: true,
		computed: true,
		description: 'Default ""'
	},
	{
		name: 'timeout',
		type: 'number',
		optional: true,
		computed: true,
		description: 'ms, default 45000'
	},
	{ name: 'degraded_at', type: 'number', optional: true, description: 'ms; null: never degraded' },
	{ name: 'retry', type: 'number', optional: true, computed: true, description: '0-10, default 3' },
	{ name: 'active', type: 'bool', optional: true, computed: true, description: 'Default false' },
	{ name: 'public', type: 'bool', optional: true, computed: true, description: 'Default false' },
	{
		name: 'regions',
		type: setOf('string'),
		optional: true,
		computed: true,
		description: "Regions it runs from; the server's default when left out"
	},
	{ name: 'tags', type: setOf('string'), optional: true, description: 'Up to 20 tags' },
	{
		name: 'open_telemetry',
		nested: { nesting: 'SINGLE', attributes: OTEL_ATTRS },
		optional: true,
		description: 'Export check results over OTLP/HTTP'
	},
	{ name: 'url', type: 'string', optional: true, description: 'http: the URL checked' },
	{
		name: 'method',
		type: 'string',
		optional: true,
		computed: true,
		description: 'http: default GET'
	},
	{
		name: 'body',
		type: 'string',
		optional: true,
		computed: true,
		description: 'http: request body'
	},
	{
		name: 'follow_redirects',
		type: 'bool',
		optional: true,
		computed: true,
		description: 'http: default true'
	},
	{ name: 'headers', type: listOf(KV), optional: true, description: 'http: request headers' },
	{
		name: 'status_code_assertions',
		type: listOf(obj({ target: 'number', comparator: 'string' })),
		optional: true,
		description: 'http'
	},
	{
		name: 'body_assertions',
		type: listOf(obj({ target: 'string', comparator: 'string' })),
		optional: true,
		description: 'http'
	},
	{
		name: 'header_assertions',
		type: listOf(obj({ key: 'string', target: 'string', comparator: 'string' })),
		optional: true,
		description: 'http'
	},
	{
		name: 'uri',
		type: 'string',
		optional: true,
		description: 'tcp: host:port; dns: domain; icmp: host'
	},
	{
		name: 'record_assertions',
		type: listOf(obj({ record: 'string', target: 'string', comparator: 'string' })),
		optional: true,
		description: 'dns'
	},
	{
		name: 'private_location_ids',
		type: setOf('number'),
		computed: true,
		description: 'Private locations running it (set on upstate_private_location)'
	},
	{
		name: 'notification_channel_ids',
		type: setOf('number'),
		computed: true,
		description: 'Notification channels alerting on it'
	},
	{ name: 'created_at', type: 'string', computed: true, description: 'Creation time' }
];

export const MONITOR_SCHEMA: Block = {
	description: 'An Upstate monitor (http, tcp, dns or icmp).',
	attributes: MONITOR_ATTRS
};

const CONFIGURABLE = MONITOR_ATTRS.filter((a) => a.required || a.optional).map((a) => a.name);
const KEEP_ON_UPDATE = new Set(['id', 'created_at']);

// Sets compare without order.
function same(a: Value, b: Value, isSet: boolean): boolean {
	if (isSet && Array.isArray(a) && Array.isArray(b))
		return isDeepStrictEqual([...a].map(String).sort(), [...b].map(String).sort());
	return isDeepStrictEqual(a, b);
}
const isSetAttr = (name: string) => {
	const t = MONITOR_ATTRS.find((a) => a.name === name)?.type;
	return Array.isArray(t) && t[0] === 'set';
};

export function planMonitor(prior: Row | null, config: Row): { planned: Row; replace: boolean } {
	const planned: Row = {};
	const type = config.type;
	for (const a of MONITOR_ATTRS) {
		const c = config[a.name];
		if (!a.computed) planned[a.name] = c;
		else if (a.optional) {
			if (c !== null) planned[a.name] = c;
			else if (DEFAULTS[a.name]) planned[a.name] = DEFAULTS[a.name](type);
			else planned[a.name] = prior ? prior[a.name] : UNKNOWN;
		}
	}
	if (planned.open_telemetry && typeof planned.open_telemetry === 'object')
		planned.open_telemetry = complete(OTEL_ATTRS, planned.open_telemetry as Row);
	const replace = prior !== null && prior.type !== type;
	const changed =
		prior === null ||
		replace ||
		CONFIGURABLE.some((n) => !same(planned[n], prior[n], isSetAttr(n)));
	for (const a of MONITOR_ATTRS)
		if (a.computed && !a.optional)
			planned[a.name] =
				prior && !replace && (!changed || KEEP_ON_UPDATE.has(a.name)) ? prior[a.name] : UNKNOWN;
	return { planned, replace };
}

// The /rpc input for a create: every configured field (what is null is left to the server).
export function createInput(planned: Row): Record<string, unknown> {
	const input: Record<string, unknown> = {};
	for (const name of CONFIGURABLE) {
		const v = planned[name];
		if (v === null || v === UNKNOWN) continue;
		input[name] = name === 'open_telemetry' ? otelInput(v as Row) : v;
	}
	return input;
}

// An update sends only what changed; a list or block removed from configuration is cleared.
export function updateInput(prior: Row, planned: Row): Record<string, unknown> {
	const input: Record<string, unknown> = { monitorId: Number(prior.id) };
	for (const name of CONFIGURABLE) {
		if (name === 'type') continue;
		const v = planned[name];
		if (v === UNKNOWN || same(v, prior[name], isSetAttr(name))) continue;
		const isList = Array.isArray(prior[name]) || LIST_ATTRS.has(name);
		if (v === null) input[name] = isList ? [] : null;
		else input[name] = name === 'open_telemetry' ? otelInput(v as Row) : v;
	}
	return input;
}
const LIST_ATTRS = new Set(
	MONITOR_ATTRS.filter((a) => Array.isArray(a.type) && a.type[0] !== 'object').map((a) => a.name)
);

const otelInput = (v: Row) => ({ endpoint: v.endpoint, headers: v.headers ?? [] });

// The server's monitor as Terraform state. `shape` is what Terraform holds (plan, prior
// state or nothing on import): an empty list it holds as null stays null, so a list left out
// of configuration never shows as a change.
export function monitorState(m: Record<string, unknown>, shape: Row | null): Row {
	const out: Row = {};
	for (const a of MONITOR_ATTRS) {
		let v = (m[a.name] ?? null) as Value;
		if (a.name === 'id') v = String(m.id);
		if (a.name === 'open_telemetry' && v) {
			const o = complete(OTEL_ATTRS, v as Row);
			const held = shape?.open_telemetry as Row | null | undefined;
			if (Array.isArray(o.headers) && o.headers.length === 0 && !held?.headers) o.headers = null;
			v = o;
		}
		if (Array.isArray(v) && !a.computed && v.length === 0 && !shape?.[a.name]) v = null;
		if (Array.isArray(v)) v = v.map((x) => (x && typeof x === 'object' ? pick(x as Row) : x));
		out[a.name] = v;
	}
	return out;
}
const pick = (x: Row): Row =>
	Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined));

// upstate_monitor as a managed resource (the provider's dispatch).
export const MONITOR: Managed = {
	noun: 'monitor',
	schema: MONITOR_SCHEMA,
	validate(config) {
		const t = config?.type;
		if (typeof t !== 'string' || MANAGED_TYPES.includes(t)) return [];
		return [
			{
				summary: `Unsupported monitor type "${t}"`,
				detail: t === 'grpc' ? GRPC_ELSEWHERE : `Use one of: ${MANAGED_TYPES.join(', ')}.`,
				attr: 'type'
			}
		];
	},
	plan(prior, config) {
		const { planned, replace } = planMonitor(prior, config);
		return { planned, replace: replace ? ['type'] : [] };
	},
	async read(api, state) {
		const m = await orNull(api('monitor.get', { monitorId: Number(state.id) }));
		return m && monitorState(m, state);
	},
	async create(api, planned) {
		return monitorState(await api('monitor.create', createInput(planned)), planned);
	},
	async update(api, prior, planned) {
		return monitorState(await api('monitor.update', updateInput(prior, planned)), planned);
	},
	async remove(api, prior) {
		await orNull(api('monitor.remove', { monitorId: Number(prior.id) }));
	},
	async importState(api, raw) {
		const n = numericId(raw, 'monitor', '`terraform import upstate_monitor.web 42`');
		const m = await orNull(api('monitor.get', { monitorId: n }));
		if (!m) throw notFound('monitor', raw, 'data.upstate_monitors lists them');
		if (!MANAGED_TYPES.includes(m.type as string))
			throw new ImportError(`Monitor ${raw} is a ${String(m.type)} monitor`, GRPC_ELSEWHERE);
		return monitorState(m, null);
	}
};
const GRPC_ELSEWHERE =
	'gRPC monitors are managed from the dashboard, the ConnectRPC API or the CLI, not Terraform.';
