import type { Monitor, Prisma } from '@prisma/client';
import type { ServiceContext } from '../context.ts';
import { LimitExceededError, NotFoundError, ValidationError } from '../errors.ts';
import type { Limits } from '../limits.ts';
import { REGIONS, isRegionAllowed, type Region } from '../regions.ts';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { MonitorFields, MonitorOutput } from './schemas.ts';

export const monitorInclude = {
	privateLocations: { select: { privateLocationId: true } },
	channels: { select: { channelId: true } },
	_count: { select: { incidents: { where: { resolvedAt: null } } } }
} satisfies Prisma.MonitorInclude;

type MonitorRow = Prisma.MonitorGetPayload<{ include: typeof monitorInclude }>;

export async function getMonitorInWorkspace(args: InWorkspace): Promise<MonitorRow> {
	return getInWorkspace('monitor', args, (where) =>
		args.tx.monitor.findFirst({ where, include: monitorInclude })
	);
}

const json = <T>(text: string): T => JSON.parse(text) as T;

// Ids other entities link to (channels, private locations): each must be the workspace's
// (spec 4.1 rule 6). Returns them without repeats.
export async function requireMonitorsInWorkspace(
	tx: Tx,
	args: { workspaceId: number; monitorIds: number[] }
): Promise<number[]> {
	const ids = [...new Set(args.monitorIds)];
	const found = await tx.monitor.findMany({
		where: { id: { in: ids }, workspaceId: args.workspaceId },
		select: { id: true }
	});
	const missing = ids.find((id) => !found.some((m) => m.id === id));
	if (missing !== undefined) throw new NotFoundError('monitor', missing);
	return ids;
}

// An owner's links to monitors (a channel's, a location's) become exactly `monitorIds`, each the
// workspace's: links to others are removed, missing ones added, kept ones left as they are.
export async function setMonitorLinks(
	tx: Tx,
	args: {
		workspaceId: number;
		monitorIds: number[];
		linked: () => Promise<Array<{ monitorId: number }>>;
		unlinkAllBut: (keep: number[]) => Promise<unknown>;
		link: (monitorIds: number[]) => Promise<unknown>;
	}
): Promise<void> {
	const ids = await requireMonitorsInWorkspace(tx, args);
	await args.unlinkAllBut(ids);
	const existing = new Set((await args.linked()).map((l) => l.monitorId));
	const toAdd = ids.filter((id) => !existing.has(id));
	if (toAdd.length) await args.link(toAdd);
}

export function toMonitorOutput(row: MonitorRow): MonitorOutput {
	const base: MonitorOutput = {
		id: row.id,
		type: row.type as MonitorOutput['type'],
		name: row.name,
		description: row.description,
		periodicity: row.periodicity as MonitorOutput['periodicity'],
		timeout: row.timeout,
		degraded_at: row.degradedAt,
		retry: row.retry,
		active: row.active,
		public: row.public,
		regions: json(row.regions),
		tags: json(row.tags),
		status: row.status as MonitorOutput['status'],
		open_telemetry: row.otelEndpoint
			? { endpoint: row.otelEndpoint, headers: json(row.otelHeaders) }
			: null,
		private_location_ids: row.privateLocations.map((p) => p.privateLocationId),
		notification_channel_ids: row.channels.map((c) => c.channelId),
		activeIncidentCount: row._count.incidents,
		created_at: row.createdAt.toISOString(),
		updated_at: row.updatedAt.toISOString()
	};
	switch (row.type) {
		case 'http':
			return {
				...base,
				url: row.url ?? '',
				method: row.method as MonitorOutput['method'],
				body: row.body,
				follow_redirects: row.followRedirects,
				headers: json(row.headers),
				status_code_assertions: json(row.statusCodeAssertions),
				body_assertions: json(row.bodyAssertions),
				header_assertions: json(row.headerAssertions)
			};
		case 'dns':
			return { ...base, uri: row.uri ?? '', record_assertions: json(row.recordAssertions) };
		case 'grpc':
			return {
				...base,
				uri: row.uri ?? '',
				service: row.grpcService,
				tls: row.grpcTls as MonitorOutput['tls'],
				metadata: json(row.grpcMetadata)
			};
		default:
			return { ...base, uri: row.uri ?? '' };
	}
}

// The create-shaped view of a stored monitor, so an update can be merged and validated whole.
export function toMonitorFields(row: Monitor): Record<string, unknown> {
	const out = toMonitorOutput({
		...row,
		privateLocations: [],
		channels: [],
		_count: { incidents: 0 }
	});
	const {
		id: _id,
		status: _s,
		private_location_ids: _p,
		notification_channel_ids: _n,
		activeIncidentCount: _a,
		created_at: _c,
		updated_at: _u,
		...fields
	} = out;
	return fields;
}

export function toMonitorData(
	fields: MonitorFields,
	regions: Region[]
): Omit<Prisma.MonitorUncheckedCreateInput, 'workspaceId'> {
	const data: Omit<Prisma.MonitorUncheckedCreateInput, 'workspaceId'> = {
		type: fields.type,
		name: fields.name,
		description: fields.description,
		periodicity: fields.periodicity,
		timeout: fields.timeout,
		degradedAt: fields.degraded_at,
		retry: fields.retry,
		active: fields.active,
		public: fields.public,
		regions: JSON.stringify(regions),
		tags: JSON.stringify(fields.tags),
		otelEndpoint: fields.open_telemetry?.endpoint ?? null,
		otelHeaders: JSON.stringify(fields.open_telemetry?.headers ?? [])
	};
	switch (fields.type) {
		case 'http':
			return {
				...data,
				url: fields.url,
				method: fields.method,
				body: fields.body,
				followRedirects: fields.follow_redirects,
				headers: JSON.stringify(fields.headers),
				statusCodeAssertions: JSON.stringify(fields.status_code_assertions),
				bodyAssertions: JSON.stringify(fields.body_assertions),
				headerAssertions: JSON.stringify(fields.header_assertions)
			};
		case 'dns':
			return {
				...data,
				uri: fields.uri,
				recordAssertions: JSON.stringify(fields.record_assertions)
			};
		case 'grpc':
			return {
				...data,
				uri: fields.uri,
				grpcService: fields.service,
				grpcTls: fields.tls,
				grpcMetadata: JSON.stringify(fields.metadata)
			};
		default:
			return { ...data, uri: fields.uri };
	}
}

// Default regions (spec 2.4): the plan's first 4 on the free plan, 6 on paid plans.
export function defaultRegions(ctx: ServiceContext): Region[] {
	const count = ctx.workspace.plan === 'free' ? 4 : 6;
	return REGIONS.filter((r) => isRegionAllowed(r, ctx.workspace.limits.regions)).slice(0, count);
}

// Plan rules of spec 2.3/2.4 for one monitor's settings: periodicity, regions, OTLP export. On
// an edit (`current`: the stored settings) only a change towards a rule is checked, so a
// monitor kept through a plan downgrade can still be renamed or moved back within the plan.
export function checkMonitorPlan(
	limits: Limits,
	fields: MonitorFields,
	regions: Region[],
	current?: { fields: MonitorFields; regions: Region[] }
): void {
	if (
		fields.periodicity !== current?.fields.periodicity &&
		!limits.periodicity.includes(fields.periodicity)
	) {
		throw new LimitExceededError(
			'periodicity',
			false,
			`periodicity '${fields.periodicity}' is not in your plan (allowed: ${limits.periodicity.join(', ')})`
		);
	}
	const kept = new Set(current?.regions ?? []);
	const denied = regions.filter((r) => !kept.has(r) && !isRegionAllowed(r, limits.regions));
	if (denied.length > 0) {
		throw new LimitExceededError(
			'regions',
			false,
			`regions not in your plan: ${denied.join(', ')}`
		);
	}
	const maxRegions = limits['multi-region'] ? limits['max-regions'] : 1;
	if (regions.length > maxRegions && regions.length > (current?.regions.length ?? 0)) {
		throw new LimitExceededError(
			'max-regions',
			maxRegions,
			`your plan allows at most ${maxRegions} regions per monitor`
		);
	}
	if (fields.open_telemetry && !current?.fields.open_telemetry && !limits.otel)
		throw new LimitExceededError('otel', false);
}

export function rejectForeignFields(type: string, patch: Record<string, unknown>): void {
	const allowed: Record<string, string[]> = {
		http: [
			'url',
			'method',
			'body',
			'follow_redirects',
			'headers',
			'status_code_assertions',
			'body_assertions',
			'header_assertions'
		],
		tcp: ['uri'],
		dns: ['uri', 'record_assertions'],
		icmp: ['uri'],
		grpc: ['uri', 'service', 'tls', 'metadata']
	};
	const specific = new Set(Object.values(allowed).flat());
	const foreign = Object.keys(patch).filter((k) => specific.has(k) && !allowed[type].includes(k));
	if (foreign.length > 0) {
		throw new ValidationError(
			foreign.map((k) => `${k}: not a field of ${type} monitors`).join('; '),
			foreign.map((k) => ({ path: k, message: `not a field of ${type} monitors` }))
		);
	}
}
