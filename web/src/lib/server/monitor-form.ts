import { checkbox, int, text } from './form';

// Dashboard monitor form → router input. Type-specific fields follow the spec's names. List
// fields are textareas, one entry per line, so the form works without JavaScript.
// A self-hosted install's form has no regions field (`selfHost`): a new monitor gets none
// rather than the plan's hosted defaults, and an edit keeps what is stored.
export function monitorInput(
	v: Record<string, string>,
	mode: 'create' | 'update' = 'create',
	selfHost = false
) {
	const otlpEndpoint = text(v, 'otel_endpoint');
	const regions = words(v.regions);
	const common = {
		name: text(v, 'name') ?? '',
		periodicity: text(v, 'periodicity') ?? '',
		timeout: int(v, 'timeout'),
		retry: int(v, 'retry'),
		degraded_at: int(v, 'degraded_at') ?? null,
		description: v.description ?? '',
		active: checkbox(v, 'active'),
		public: checkbox(v, 'public'),
		// Empty on create means the plan's default regions; on update it clears them.
		regions: selfHost
			? mode === 'create'
				? []
				: undefined
			: regions.length || mode === 'update'
				? regions
				: undefined,
		tags: words(v.tags),
		open_telemetry: otlpEndpoint
			? { endpoint: otlpEndpoint, headers: keyValues(v.otel_headers) }
			: null
	};
	const type = v.type ?? 'http';
	if (type === 'http') {
		return {
			type,
			...common,
			url: text(v, 'url') ?? '',
			method: text(v, 'method'),
			body: v.body ?? '',
			follow_redirects: checkbox(v, 'follow_redirects'),
			headers: keyValues(v.headers),
			status_code_assertions: lines(v.status_code_assertions).map((l) => {
				const [comparator = '', target = ''] = l.split(/\s+/);
				return { comparator, target: target === '' ? Number.NaN : Number(target) };
			}),
			body_assertions: lines(v.body_assertions).map((l) => {
				const [comparator = '', target = ''] = splitFirst(l);
				return { comparator, target };
			}),
			header_assertions: lines(v.header_assertions).map((l) => {
				const [key = '', rest = ''] = splitFirst(l);
				const [comparator = '', target = ''] = splitFirst(rest);
				return { key, comparator, target };
			})
		};
	}
	if (type === 'dns')
		return {
			type,
			...common,
			uri: text(v, 'uri') ?? '',
			record_assertions: lines(v.record_assertions).map((l) => {
				const [record = '', rest = ''] = splitFirst(l);
				const [comparator = '', target = ''] = splitFirst(rest);
				return { record: record.toUpperCase(), comparator, target };
			})
		};
	if (type === 'grpc')
		return {
			type,
			...common,
			uri: text(v, 'uri') ?? '',
			service: v.service ?? '',
			tls: text(v, 'tls'),
			metadata: keyValues(v.metadata)
		};
	return { type, ...common, uri: text(v, 'uri') ?? '' };
}

const lines = (s: string | undefined) =>
	(s ?? '')
		.split(/\r?\n/)
		.map((l) => l.trim())
		.filter(Boolean);
const words = (s: string | undefined) => (s ?? '').split(/[\s,]+/).filter(Boolean);

function splitFirst(s: string): [string, string] {
	const m = /^(\S+)\s*(.*)$/.exec(s);
	return m ? [m[1], m[2]] : ['', ''];
}

// `Key: value` per line (a header or metadata block).
function keyValues(s: string | undefined) {
	return lines(s).map((l) => {
		const i = l.indexOf(':');
		return i < 0
			? { key: l, value: '' }
			: { key: l.slice(0, i).trim(), value: l.slice(i + 1).trim() };
	});
}
