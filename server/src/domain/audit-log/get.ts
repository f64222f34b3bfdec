import { requireScope, type ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { auditScope, toAuditLogOutput } from './internal.ts';
import { AuditLogIdInput, type AuditLogOutput } from './schemas.ts';

// One entry with its before/after snapshots. Another workspace's entry, or one older than the
// 14-day window, is NOT_FOUND.
export async function getAuditLog(args: {
	ctx: ServiceContext;
	input: AuditLogIdInput;
}): Promise<AuditLogOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const where = auditScope(ctx);
	const { auditLogId } = parseInput(AuditLogIdInput, args.input);
	const row = await ctx.db.auditLog.findFirst({ where: { ...where, id: auditLogId } });
	if (!row) throw new NotFoundError('audit log entry', auditLogId);
	return toAuditLogOutput(row);
}
