import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { auditScope, toAuditLogListItem } from './internal.ts';
import { ListAuditLogsInput, type AuditLogListOutput } from './schemas.ts';
import { paginate } from '../paginate.ts';

// Newest first, the last 14 days only (spec 8); snapshots are on the single read.
export async function listAuditLogs(args: {
	ctx: ServiceContext;
	input?: ListAuditLogsInput;
}): Promise<AuditLogListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const where = auditScope(ctx);
	const { page, perPage, entityType, entityId } = parseInput(ListAuditLogsInput, args.input);
	const filtered = { ...where, entityType, entityId };
	const { rows, pagination } = await paginate({
		page,
		perPage,
		rows: (window) =>
			ctx.db.auditLog.findMany({
				where: filtered,
				orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
				...window
			}),
		count: () => ctx.db.auditLog.count({ where: filtered })
	});
	return { data: rows.map(toAuditLogListItem), pagination };
}
