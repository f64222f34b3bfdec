import { z } from 'zod';

// Status reports (spec 2.16, 3.6). `resolved` is reached only through resolve; public updates
// created by create / add-update move between the open statuses. A metadata edit never does.
export const REPORT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const OPEN_STATUSES = ['investigating', 'identified', 'monitoring'] as const;
export const IMPACTS = [
	'operational',
	'degraded_performance',
	'partial_outage',
	'major_outage'
] as const;

const Id = z.number().int().positive();
const ComponentIds = z.array(Id).max(100);
const Message = z.string().trim().min(1).max(5000);
// Per-component impact of one public update; components must be on the report's page.
const Impacts = z
	.array(z.object({ componentId: Id, impact: z.enum(IMPACTS) }))
	.max(100)
	.refine((list) => new Set(list.map((i) => i.componentId)).size === list.length, {
		error: 'one impact per component'
	})
	.default([]);
// Required, no default (spec 4.1 rule 1): a call without it fails the input schema.
const Notify = z.boolean();
// Publishing inputs are strict: a misspelt `componentIds` would otherwise publish a report that
// names no component.

export const CreateStatusReportInput = z
	.object({
		pageId: Id,
		title: z.string().trim().min(1).max(256),
		status: z.enum(OPEN_STATUSES),
		message: Message,
		pageComponentIds: ComponentIds.default([]),
		impacts: Impacts,
		notify: Notify
	})
	.strict();
export type CreateStatusReportInput = z.input<typeof CreateStatusReportInput>;

// Metadata only: no message, no public update, no notify path (spec 4.1 rule 5). `status` is in
// the spec's contract but may only repeat the current status (update.ts says why).
export const UpdateStatusReportInput = z
	.object({
		reportId: Id,
		title: z.string().trim().min(1).max(256).optional(),
		status: z.enum(REPORT_STATUSES).optional(),
		pageComponentIds: ComponentIds.optional()
	})
	.strict();
export type UpdateStatusReportInput = z.input<typeof UpdateStatusReportInput>;

export const AddStatusReportUpdateInput = z
	.object({
		reportId: Id,
		status: z.enum(OPEN_STATUSES, {
			error: `one of ${OPEN_STATUSES.join(', ')} (resolve the report to close it)`
		}),
		message: Message,
		impacts: Impacts,
		notify: Notify
	})
	.strict();
export type AddStatusReportUpdateInput = z.input<typeof AddStatusReportUpdateInput>;

export const ResolveStatusReportInput = z
	.object({
		reportId: Id,
		message: Message,
		impacts: Impacts,
		notify: Notify
	})
	.strict();
export type ResolveStatusReportInput = z.input<typeof ResolveStatusReportInput>;

export const ReportIdInput = z.object({ reportId: Id });
export type ReportIdInput = z.infer<typeof ReportIdInput>;

export const ListStatusReportsInput = z
	.object({
		pageId: Id.optional(),
		filter: z.enum(['active', 'all']).default('active'),
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(200).default(50)
	})
	.default({ filter: 'active', page: 1, perPage: 50 });
export type ListStatusReportsInput = z.input<typeof ListStatusReportsInput>;

export const StatusReportUpdateOutput = z.object({
	id: z.number(),
	status: z.enum(REPORT_STATUSES),
	message: z.string(),
	date: z.string(),
	notify: z.boolean(),
	notified: z.boolean(),
	impacts: z.array(z.object({ componentId: z.number(), impact: z.enum(IMPACTS) }))
});

export const StatusReportOutput = z.object({
	id: z.number(),
	pageId: z.number(),
	title: z.string(),
	status: z.enum(REPORT_STATUSES),
	pageComponentIds: z.array(z.number()),
	resolvedAt: z.string().nullable(),
	createdAt: z.string(),
	updatedAt: z.string(),
	updates: z.array(StatusReportUpdateOutput) // newest first
});
export type StatusReportOutput = z.infer<typeof StatusReportOutput>;

// Publishing responses carry `notified` (spec 2.16).
export const PublishedStatusReportOutput = StatusReportOutput.extend({ notified: z.boolean() });
export type PublishedStatusReportOutput = z.infer<typeof PublishedStatusReportOutput>;

export const StatusReportListOutput = z.object({
	data: z.array(StatusReportOutput),
	pagination: z.object({
		page: z.number(),
		perPage: z.number(),
		totalSize: z.number(),
		totalPages: z.number()
	})
});
export type StatusReportListOutput = z.infer<typeof StatusReportListOutput>;
