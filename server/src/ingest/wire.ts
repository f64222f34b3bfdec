import { create } from '@bufbuild/protobuf';
import type { CheckResultInput } from '../domain/check-result/index.ts';
import type { MonitorOutput } from '../domain/monitor/index.ts';
import { MonitorSchema, type CheckResult, type Monitor } from '@upstate/proto/ingest';

// API monitor → the probe's wire message; assertion blocks travel as the API's JSON.
export function toWireMonitor(m: MonitorOutput): Monitor {
	return create(MonitorSchema, {
		id: m.id,
		name: m.name,
		type: m.type,
		periodicity: m.periodicity,
		timeoutMs: m.timeout,
		degradedAtMs: m.degraded_at ?? undefined,
		retry: m.retry,
		active: m.active,
		url: m.url ?? '',
		method: m.method ?? 'GET',
		body: m.body ?? '',
		followRedirects: m.follow_redirects ?? true,
		headers: m.headers ?? [],
		assertionsJson: JSON.stringify({
			status_code_assertions: m.status_code_assertions ?? [],
			body_assertions: m.body_assertions ?? [],
			header_assertions: m.header_assertions ?? [],
			record_assertions: m.record_assertions ?? []
		}),
		uri: m.uri ?? '',
		grpcService: m.service ?? '',
		grpcTls: m.tls ?? 'verify',
		grpcMetadata: m.metadata ?? [],
		otelEndpoint: m.open_telemetry?.endpoint ?? '',
		otelHeaders: m.open_telemetry?.headers ?? []
	});
}

export function fromWireResult(r: CheckResult): CheckResultInput {
	const timing = Object.fromEntries(
		Object.entries({
			dns: r.timing?.dns,
			connect: r.timing?.connect,
			tls: r.timing?.tls,
			ttfb: r.timing?.ttfb,
			transfer: r.timing?.transfer
		}).filter(([, v]) => v !== undefined)
	) as CheckResultInput['timing'];
	return {
		resultId: r.resultId,
		monitorId: r.monitorId,
		startedAt: r.startedAtMs,
		latency: r.latencyMs,
		// safe because the domain schema rejects any other word
		outcome: r.outcome as CheckResultInput['outcome'],
		attempts: r.attempts,
		statusCode: r.statusCode ?? null,
		error: r.error,
		timing,
		headers: r.headers,
		assertions: r.assertionsJson || '[]',
		grpcStatus: r.grpcStatus,
		packetLoss: r.packetLoss ?? null
	};
}
