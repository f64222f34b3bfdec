import { z } from 'zod';
import { LimitsOverride } from '../limits.ts';

// The instance admin's view of every workspace (self-hosted instances; dashboard only).
export const SetWorkspacePlanInput = z
	.object({
		workspaceId: z.number().int().positive(),
		plan: z.string().trim().min(1).max(64),
		// Written as given: keys left out fall back to the free plan (spec 2.3).
		limits: LimitsOverride.strict()
	})
	.strict();
export type SetWorkspacePlanInput = z.input<typeof SetWorkspacePlanInput>;

export const AdminWorkspace = z.object({
	id: z.number(),
	name: z.string(),
	slug: z.string(),
	plan: z.string(),
	// What is stored (the keys written out) and what applies (with free-plan fallbacks).
	stored_limits: z.record(z.string(), z.unknown()),
	limits: z.record(z.string(), z.unknown()),
	members: z.number()
});
export type AdminWorkspace = z.infer<typeof AdminWorkspace>;

export const AdminWorkspaceList = z.object({ data: z.array(AdminWorkspace) });
