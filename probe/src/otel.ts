import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { CheckResult, KeyValue, Outcome, ProbeMonitor, Timing } from './checks/types.ts';

// OTLP/HTTP (JSON) export of each check's metrics to the monitor's own endpoint (plan feature
// `otel`). Every instrument is a gauge holding that check's value, exported right after the check.
export const METRIC = {
	duration: 'upstate.check.duration',
	status: 'upstate.check.status',
	grpcServing: 'upstate.check.grpc.serving'
} as const;
const PHASES = ['dns', 'connect', 'tls', 'ttfb', 'transfer'] as const satisfies (keyof Timing)[];
export const phaseMetric = (phase: (typeof PHASES)[number]) => `upstate.check.${phase}.duration`;
// 1 up, 0.5 slow but up, 0 down: averaging the gauge over time reads as uptime.
export const STATUS_VALUE: Record<Outcome, number> = { success: 1, degraded: 0.5, error: 0 };

export type OtelTarget = { endpoint: string; headers: KeyValue[] };

// Collects only when asked (after a check), never on a timer of its own.
class OnDemandReader extends MetricReader {
	protected async onShutdown(): Promise<void> {}
	protected async onForceFlush(): Promise<void> {}
}

type Gauge = { record(value: number, attributes: Record<string, string>): void };
type Sink = {
	provider: MeterProvider;
	reader: OnDemandReader;
	exporter: OTLPMetricExporter;
	gauges: Map<string, Gauge>;
};

// The OTLP convention: a bare collector address means its metrics path.
export function metricsUrl(endpoint: string): string {
	const url = new URL(endpoint);
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		throw new Error(`OTLP endpoint must be http(s), got ${url.protocol}`);
	if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/metrics';
	return url.toString();
}

export function createOtelExport(opts: { location: () => string; timeoutMs?: number }) {
	// One meter provider per endpoint and header set, shared by the monitors that use it; delta
	// temporality makes each collection carry only what was recorded since the previous one.
	const sinks = new Map<string, Sink>();

	function sinkFor(target: OtelTarget): Sink {
		const key = JSON.stringify([target.endpoint, target.headers]);
		let sink = sinks.get(key);
		if (sink) return sink;
		const reader = new OnDemandReader({
			aggregationTemporalitySelector: () => AggregationTemporality.DELTA
		});
		const provider = new MeterProvider({
			resource: resourceFromAttributes({ 'service.name': 'upstate-probe' }),
			readers: [reader]
		});
		const exporter = new OTLPMetricExporter({
			url: metricsUrl(target.endpoint),
			headers: Object.fromEntries(target.headers.map((h) => [h.key, h.value])),
			timeoutMillis: opts.timeoutMs ?? 10_000
		});
		sink = { provider, reader, exporter, gauges: new Map() };
		sinks.set(key, sink);
		return sink;
	}

	function gauge(sink: Sink, name: string, unit: string): Gauge {
		let g = sink.gauges.get(name);
		if (!g) {
			g = sink.provider.getMeter('upstate-probe').createGauge(name, { unit });
			sink.gauges.set(name, g);
		}
		return g;
	}

	async function exportNow(sink: Sink, m: ProbeMonitor, endpoint: string): Promise<void> {
		try {
			const { resourceMetrics } = await sink.reader.collect();
			const points = resourceMetrics.scopeMetrics.some((s) =>
				s.metrics.some((x) => x.dataPoints.length > 0)
			);
			// A concurrent check on the same endpoint may already have sent these points.
			if (!points) return;
			const result = await new Promise<{ code: number; error?: Error }>((resolve) =>
				sink.exporter.export(resourceMetrics, resolve)
			);
			if (result.code !== 0) throw result.error ?? new Error('export failed');
		} catch (err) {
			console.error(
				`[probe] otel export failed monitor=${m.id} endpoint=${JSON.stringify(endpoint)} error=${JSON.stringify((err as Error).message)}`
			);
		}
	}

	return {
		// Fire and forget: a check's result never waits on, or fails because of, its export.
		record(m: ProbeMonitor, r: CheckResult): void {
			if (!m.otel) return;
			let sink: Sink;
			try {
				sink = sinkFor(m.otel);
			} catch (err) {
				console.error(
					`[probe] otel export failed monitor=${m.id} endpoint=${JSON.stringify(m.otel.endpoint)} error=${JSON.stringify((err as Error).message)}`
				);
				return;
			}
			const attrs = {
				'monitor.id': String(m.id),
				'monitor.name': m.name,
				'monitor.type': m.type,
				'probe.location': opts.location()
			};
			gauge(sink, METRIC.duration, 'ms').record(r.latency, attrs);
			for (const phase of PHASES) {
				const value = r.timing?.[phase];
				if (value !== undefined) gauge(sink, phaseMetric(phase), 'ms').record(value, attrs);
			}
			gauge(sink, METRIC.status, '1').record(STATUS_VALUE[r.outcome], attrs);
			if (m.type === 'grpc')
				gauge(sink, METRIC.grpcServing, '1').record(r.grpcStatus === 'SERVING' ? 1 : 0, attrs);
			void exportNow(sink, m, m.otel.endpoint);
		},
		// Monitors whose endpoint went away stop holding an exporter.
		retain(targets: OtelTarget[]): void {
			const keep = new Set(targets.map((t) => JSON.stringify([t.endpoint, t.headers])));
			for (const [key, sink] of sinks)
				if (!keep.has(key)) {
					sinks.delete(key);
					void Promise.allSettled([sink.provider.shutdown(), sink.exporter.shutdown()]);
				}
		},
		async shutdown(): Promise<void> {
			await Promise.allSettled(
				[...sinks.values()].flatMap((s) => [s.provider.shutdown(), s.exporter.shutdown()])
			);
			sinks.clear();
		}
	};
}
