import {
	AuditLogIdInput,
	AuditLogListOutput,
	AuditLogOutput,
	ListAuditLogsInput,
	getAuditLog,
	listAuditLogs
} from '../domain/audit-log/index.ts';
import { createTRPCRouter, readProcedure } from './trpc.ts';

const tags = ['audit log'];

// Plan key `audit-log`: the verbs answer LIMIT_EXCEEDED without it, and `mcp.feature` keeps
// both tools out of tools/list for such workspaces (spec 4.1: 19 tools, 17 without it).
export const auditLogRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/audit-logs',
				summary: 'Audit log entries of the last 14 days, newest first',
				tags
			},
			mcp: {
				name: 'list_audit_logs',
				description:
					'Audit log entries of the last 14 days, newest first: who (actor_type, actor_id, actor_user_id) did what (action) to which entity, and the changedFields. Filter with entityType (e.g. monitor, status_report) and optionally entityId. Use get_audit_log for the before/after snapshots.',
				feature: 'audit-log'
			}
		})
		.input(ListAuditLogsInput)
		.output(AuditLogListOutput)
		.query(({ ctx, input }) => listAuditLogs({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/audit-logs/{auditLogId}',
				summary: 'One audit log entry with its before/after snapshots',
				tags
			},
			mcp: {
				name: 'get_audit_log',
				description:
					'One audit log entry by id: the full before and after snapshots (secrets removed) and changedFields.',
				feature: 'audit-log'
			}
		})
		.input(AuditLogIdInput)
		.output(AuditLogOutput)
		.query(({ ctx, input }) => getAuditLog({ ctx: ctx.service, input }))
});
