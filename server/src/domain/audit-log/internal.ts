import type { AuditLog } from '@prisma/client';
import { withoutSecrets } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { requireFeature } from '../limits.ts';
import { AUDIT_WINDOW_MS, type AuditLogListItem, type AuditLogOutput } from './schemas.ts';

// Both reads open the same way: plan key `audit-log`, then only the window's rows.
export function auditScope(ctx: ServiceContext, now = Date.now()) {
	requireFeature(ctx.workspace.limits, 'audit-log');
	return { workspaceId: ctx.workspace.id, createdAt: { gte: new Date(now - AUDIT_WINDOW_MS) } };
}

export const toAuditLogListItem = (row: AuditLog): AuditLogListItem => ({
	id: row.id,
	action: row.action,
	actor_type: row.actorType,
	actor_id: row.actorId,
	actor_user_id: row.actorUserId,
	entity_type: row.entityType,
	entity_id: row.entityId,
	changedFields: JSON.parse(row.changedFields) as string[],
	created_at: row.createdAt.toISOString()
});

// Secrets are stripped when an entry is written; stripping again on read keeps rows written
// before a field was known to be secret from leaking.
function snapshot(text: string | null): Record<string, unknown> | null {
	// safe because writeAudit only ever stores an object (or null) as a snapshot
	return text ? (withoutSecrets(JSON.parse(text)) as Record<string, unknown>) : null;
}

export const toAuditLogOutput = (row: AuditLog): AuditLogOutput => ({
	...toAuditLogListItem(row),
	before: snapshot(row.before),
	after: snapshot(row.after)
});
