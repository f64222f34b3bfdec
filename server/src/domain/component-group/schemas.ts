import { z } from 'zod';

// Component group (spec 2.14): belongs to one page, which cannot change.
export const CreateComponentGroupInput = z
	.object({ pageId: z.number().int().positive(), name: z.string().min(1).max(256) })
	.strict();
export type CreateComponentGroupInput = z.infer<typeof CreateComponentGroupInput>;

export const UpdateComponentGroupInput = z
	.object({ groupId: z.number().int().positive(), name: z.string().min(1).max(256) })
	.strict();
export type UpdateComponentGroupInput = z.infer<typeof UpdateComponentGroupInput>;

export const GroupIdInput = z.object({ groupId: z.number().int().positive() });
export type GroupIdInput = z.infer<typeof GroupIdInput>;

export const ListComponentGroupsInput = z.object({ pageId: z.number().int().positive() });
export type ListComponentGroupsInput = z.infer<typeof ListComponentGroupsInput>;

export const ComponentGroupOutput = z.object({
	id: z.number(),
	page_id: z.number(),
	name: z.string(),
	created_at: z.string(),
	updated_at: z.string()
});
export type ComponentGroupOutput = z.infer<typeof ComponentGroupOutput>;
export const ComponentGroupListOutput = z.object({ data: z.array(ComponentGroupOutput) });
export type ComponentGroupListOutput = z.infer<typeof ComponentGroupListOutput>;
