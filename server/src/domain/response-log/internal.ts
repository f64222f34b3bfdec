import type { StoredResult } from '../../analytics/index.ts';
import type { ServiceContext } from '../context.ts';
import type { ResponseLogSummary } from './schemas.ts';

// The fields a listed log and a single log share.
export function toLogSummary(r: StoredResult, names: Map<number, string>): ResponseLogSummary {
	return {
		id: r.resultId,
		monitorId: r.monitorId,
		region: names.get(r.locationId) ?? `location ${r.locationId}`,
		timestamp: new Date(r.startedAt).toISOString(),
		status: r.outcome,
		statusCode: r.statusCode,
		latency: r.latency
	};
}

export async function locationNames(
	ctx: ServiceContext,
	ids: number[]
): Promise<Map<number, string>> {
	const rows = await ctx.db.privateLocation.findMany({
		where: { id: { in: [...new Set(ids)] }, workspaceId: ctx.workspace.id },
		select: { id: true, name: true }
	});
	return new Map(rows.map((r) => [r.id, r.name]));
}
