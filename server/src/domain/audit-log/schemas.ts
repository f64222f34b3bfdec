import { z } from 'zod';
import { Pagination } from '../monitor/schemas.ts';

// Audit log reads (spec 2.17, 4.1, 8): the last 14 days, newest first, page-numbered like every
// other list (perPage default and max 50), optionally for one entity type or one entity.
export const AUDIT_WINDOW_MS = 14 * 86_400_000;

// The entity types writeAudit is called with; the dashboard's filter offers these.
export const AUDIT_ENTITY_TYPES = [
	'api_key',
	'component_group',
	'invitation',
	'maintenance',
	'member',
	'monitor',
	'notification_channel',
	'oauth_grant',
	'page_component',
	'private_location',
	'status_page',
	'status_report',
	'workspace'
] as const;

export const ListAuditLogsInput = z
	.object({
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(50).default(50),
		entityType: z
			.string()
			.regex(/^[a-z][a-z_]{0,63}$/, 'a snake_case entity type such as monitor')
			.optional(),
		// Ids are text in the log (OAuth grants and numeric rows alike), and sent as text: REST
		// reads a query value as a number only where the schema asks for one (adapters/rest).
		entityId: z.string().min(1).max(64).optional()
	})
	.refine((v) => v.entityId === undefined || v.entityType !== undefined, {
		path: ['entityId'],
		error: 'entityId needs entityType'
	})
	.default({ page: 1, perPage: 50 });
export type ListAuditLogsInput = z.input<typeof ListAuditLogsInput>;

export const AuditLogIdInput = z.object({ auditLogId: z.number().int().positive() });
export type AuditLogIdInput = z.infer<typeof AuditLogIdInput>;

const Snapshot = z.record(z.string(), z.unknown()).nullable();

const entry = {
	id: z.number(),
	action: z.string(),
	actor_type: z.string().describe('user, apiKey (REST), mcp, system or probe'),
	actor_id: z
		.string()
		.describe('key_<key id> for an API key, oat_<grant id> for OAuth, user_<id> for a user'),
	actor_user_id: z.number().nullable(),
	entity_type: z.string(),
	entity_id: z.string(),
	changedFields: z.array(z.string()),
	created_at: z.string()
};

export const AuditLogListItem = z.object(entry);
export type AuditLogListItem = z.infer<typeof AuditLogListItem>;
export const AuditLogListOutput = z.object({
	data: z.array(AuditLogListItem),
	pagination: Pagination
});
export type AuditLogListOutput = z.infer<typeof AuditLogListOutput>;

export const AuditLogOutput = z.object({ ...entry, before: Snapshot, after: Snapshot });
export type AuditLogOutput = z.infer<typeof AuditLogOutput>;
