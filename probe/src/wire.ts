import { create } from '@bufbuild/protobuf';
import type { CheckResult as WireResult, Monitor } from '@upstate/proto/ingest';
import { CheckResultSchema } from '@upstate/proto/ingest';
import { capResult } from './checks/limits.ts';
import type { CheckResult, ProbeMonitor } from './checks/types.ts';

type Assertions = Pick<
	Extract<ProbeMonitor, { type: 'http' }>,
	'status_code_assertions' | 'body_assertions' | 'header_assertions'
> &
	Pick<Extract<ProbeMonitor, { type: 'dns' }>, 'record_assertions'>;

export function fromWireMonitor(m: Monitor): ProbeMonitor {
	const a = JSON.parse(m.assertionsJson || '{}') as Partial<Assertions>;
	const kv = (list: Array<{ key: string; value: string }>) =>
		list.map(({ key, value }) => ({ key, value }));
	const common = {
		id: m.id,
		name: m.name,
		// safe because the server only sends the periodicities it validated
		periodicity: m.periodicity as ProbeMonitor['periodicity'],
		timeout: m.timeoutMs,
		degraded_at: m.degradedAtMs ?? null,
		retry: m.retry,
		...(m.otelEndpoint ? { otel: { endpoint: m.otelEndpoint, headers: kv(m.otelHeaders) } } : {})
	};
	switch (m.type) {
		case 'http':
			return {
				...common,
				type: 'http',
				url: m.url,
				method: m.method,
				body: m.body,
				follow_redirects: m.followRedirects,
				headers: kv(m.headers),
				status_code_assertions: a.status_code_assertions ?? [],
				body_assertions: a.body_assertions ?? [],
				header_assertions: a.header_assertions ?? []
			};
		case 'dns':
			return { ...common, type: 'dns', uri: m.uri, record_assertions: a.record_assertions ?? [] };
		case 'grpc':
			return {
				...common,
				type: 'grpc',
				uri: m.uri,
				service: m.grpcService,
				tls: m.grpcTls as 'verify',
				metadata: kv(m.grpcMetadata)
			};
		case 'tcp':
			return { ...common, type: 'tcp', uri: m.uri };
		default:
			return { ...common, type: 'icmp', uri: m.uri };
	}
}

export type PendingResult = CheckResult & { resultId: string };

// Capped again here for results an older probe queued uncapped (runCheck caps new ones).
export function toWireResult(pending: PendingResult): WireResult {
	const r = capResult(pending);
	return create(CheckResultSchema, {
		resultId: r.resultId,
		monitorId: r.monitorId,
		startedAtMs: r.startedAt,
		latencyMs: r.latency,
		outcome: r.outcome,
		attempts: r.attempts,
		statusCode: r.statusCode,
		error: r.error ?? '',
		timing: r.timing ?? {},
		headers: r.headers ?? {},
		assertionsJson: JSON.stringify(r.assertions ?? []),
		grpcStatus: r.grpcStatus ?? '',
		packetLoss: r.packetLoss
	});
}
