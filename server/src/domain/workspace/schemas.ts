import { z } from 'zod';

export const WorkspaceOutput = z.object({
	id: z.number(),
	name: z.string(),
	slug: z.string(),
	plan: z.string(),
	paid_until: z.number().nullable(),
	ends_at: z.number().nullable(),
	limits: z.record(z.string(), z.unknown()), // resolved: missing keys shown with their free-plan value
	role: z.enum(['owner', 'admin', 'member']).nullable() // the caller's role; null for API keys
});
export type WorkspaceOutput = z.infer<typeof WorkspaceOutput>;

// Who is calling: the workspace and the credential (for `upstate whoami` and scripts).
export const WhoamiOutput = z.object({
	workspace: z.object({ id: z.number(), name: z.string(), slug: z.string(), plan: z.string() }),
	credential: z.object({
		type: z.enum(['user', 'apiKey', 'oauth', 'system', 'probe']),
		id: z.string(), // key_<id>, oat_<grant>, user_<id>: the audit log's actor_id
		scope: z.enum(['read', 'write'])
	})
});
export type WhoamiOutput = z.infer<typeof WhoamiOutput>;

export const UpdateWorkspaceInput = z.object({ name: z.string().min(1).max(256) }).strict();
export type UpdateWorkspaceInput = z.infer<typeof UpdateWorkspaceInput>;
