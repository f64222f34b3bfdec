import { z } from 'zod';

// Status page component (spec 2.13). page_id and type force replacement: not updatable.
const fields = {
	name: z.string().max(256).optional(),
	description: z.string().max(1024).default(''),
	order: z.number().int().min(0).max(100000).default(0),
	group_id: z.number().int().positive().nullable().default(null),
	group_order: z.number().int().min(0).max(100000).default(0)
};

export const CreatePageComponentInput = z.discriminatedUnion('type', [
	z
		.object({
			pageId: z.number().int().positive(),
			type: z.literal('monitor'),
			monitor_id: z.number().int().positive(),
			...fields
		})
		.strict(),
	z
		.object({
			pageId: z.number().int().positive(),
			type: z.literal('static'),
			...fields,
			name: z.string().min(1).max(256)
		})
		.strict()
]);
export type CreatePageComponentInput = z.input<typeof CreatePageComponentInput>;

export const UpdatePageComponentInput = z
	.object({
		componentId: z.number().int().positive(),
		name: z.string().min(1).max(256).optional(),
		description: z.string().max(1024).optional(),
		order: z.number().int().min(0).max(100000).optional(),
		group_id: z.number().int().positive().nullable().optional(),
		group_order: z.number().int().min(0).max(100000).optional(),
		monitor_id: z.number().int().positive().optional()
	})
	.strict();
export type UpdatePageComponentInput = z.input<typeof UpdatePageComponentInput>;

export const ComponentIdInput = z.object({ componentId: z.number().int().positive() });
export type ComponentIdInput = z.infer<typeof ComponentIdInput>;

export const ListPageComponentsInput = z.object({ pageId: z.number().int().positive() });
export type ListPageComponentsInput = z.infer<typeof ListPageComponentsInput>;

export const PageComponentOutput = z.object({
	id: z.number(),
	page_id: z.number(),
	type: z.enum(['monitor', 'static']),
	monitor_id: z.number().nullable(),
	monitor: z.object({ id: z.number(), name: z.string() }).nullable(),
	name: z.string(),
	description: z.string(),
	order: z.number(),
	group_id: z.number().nullable(),
	group_order: z.number(),
	created_at: z.string(),
	updated_at: z.string()
});
export type PageComponentOutput = z.infer<typeof PageComponentOutput>;
export const PageComponentListOutput = z.object({ data: z.array(PageComponentOutput) });
export type PageComponentListOutput = z.infer<typeof PageComponentListOutput>;
