import { z } from 'zod';

// Maintenance windows (spec 2.16): from/to are ISO 8601 with an offset, `to` after `from`.
const Id = z.number().int().positive();
// zod's own message ("Invalid ISO datetime") misleads for 2030-01-01T02:00:00, which is ISO 8601
// but has no zone.
const When = z.iso.datetime({
	offset: true,
	error: 'must be an ISO 8601 date-time with a time zone, such as 2030-01-01T02:00:00Z'
});
const afterFrom = {
	path: ['to'],
	error: 'End date must be after start date.'
};
const ordered = (v: { from?: string; to?: string }) =>
	v.from === undefined || v.to === undefined || Date.parse(v.to) > Date.parse(v.from);

export const CreateMaintenanceInput = z
	.object({
		pageId: Id,
		// Spec 2.16 lists no title among the inputs: optional, with a default.
		title: z.string().trim().min(1).max(256).default('Scheduled maintenance'),
		message: z.string().max(5000).default(''),
		from: When,
		to: When,
		pageComponentIds: z.array(Id).max(100).default([]),
		// Required, no default (spec 4.1 rule 1).
		notify: z.boolean()
	})
	.strict()
	.refine(ordered, afterFrom);
export type CreateMaintenanceInput = z.input<typeof CreateMaintenanceInput>;

// No notify path: only creating a window publishes it.
export const UpdateMaintenanceInput = z
	.object({
		maintenanceId: Id,
		title: z.string().trim().min(1).max(256).optional(),
		message: z.string().max(5000).optional(),
		from: When.optional(),
		to: When.optional(),
		pageComponentIds: z.array(Id).max(100).optional()
	})
	.strict()
	.refine(ordered, afterFrom);
export type UpdateMaintenanceInput = z.input<typeof UpdateMaintenanceInput>;

export const MaintenanceIdInput = z.object({ maintenanceId: Id });
export type MaintenanceIdInput = z.infer<typeof MaintenanceIdInput>;

export const ListMaintenancesInput = z
	.object({
		pageId: Id.optional(),
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(200).default(50)
	})
	.default({ page: 1, perPage: 50 });
export type ListMaintenancesInput = z.input<typeof ListMaintenancesInput>;

export const MaintenanceOutput = z.object({
	id: z.number(),
	pageId: z.number(),
	title: z.string(),
	message: z.string(),
	from: z.string(),
	to: z.string(),
	pageComponentIds: z.array(z.number()),
	notify: z.boolean(),
	notified: z.boolean(),
	createdAt: z.string(),
	updatedAt: z.string()
});
export type MaintenanceOutput = z.infer<typeof MaintenanceOutput>;

export const MaintenanceListOutput = z.object({
	data: z.array(MaintenanceOutput),
	pagination: z.object({
		page: z.number(),
		perPage: z.number(),
		totalSize: z.number(),
		totalPages: z.number()
	})
});
export type MaintenanceListOutput = z.infer<typeof MaintenanceListOutput>;
