import { z } from 'zod';

export const MonitorStatusValue = z.enum(['active', 'degraded', 'error']);

// What the workflows app receives from the ingest server (spec 6: payload ours to decide).
export const StatusChangeInput = z.object({
	monitorId: z.number().int().positive(),
	from: z.string(),
	to: MonitorStatusValue,
	error: z.string().default(''),
	at: z.iso.datetime({ offset: true })
});
export type StatusChangeInput = z.input<typeof StatusChangeInput>;

export const StatusChangeOutput = z.object({
	action: z.enum(['opened', 'resolved', 'degraded', 'recovered', 'none']),
	incidentId: z.number().nullable(),
	enqueued: z.number(),
	duringMaintenance: z.boolean()
});
export type StatusChangeOutput = z.infer<typeof StatusChangeOutput>;

export const IncidentIdInput = z.object({ incidentId: z.number().int().positive() });
export type IncidentIdInput = z.input<typeof IncidentIdInput>;

export const ListIncidentsInput = z
	.object({
		filter: z.enum(['open', 'all']).default('all'),
		monitorId: z.number().int().positive().optional(),
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(200).default(50)
	})
	.default({ filter: 'all', page: 1, perPage: 50 });
export type ListIncidentsInput = z.input<typeof ListIncidentsInput>;

const Person = z.object({ id: z.number(), email: z.string() }).nullable();

export const IncidentOutput = z.object({
	id: z.number(),
	monitorId: z.number(),
	monitorName: z.string(),
	status: z.enum(['open', 'acknowledged', 'resolved']),
	startedAt: z.string(),
	acknowledgedAt: z.string().nullable(),
	acknowledgedBy: Person,
	resolvedAt: z.string().nullable(),
	resolvedBy: Person,
	autoResolved: z.boolean(),
	duringMaintenance: z.boolean(),
	durationSeconds: z.number(), // until resolution, or until now while open
	error: z.string().nullable(),
	failingLocations: z.array(z.string())
});
export type IncidentOutput = z.infer<typeof IncidentOutput>;

export const IncidentListOutput = z.object({
	data: z.array(IncidentOutput),
	pagination: z.object({
		page: z.number(),
		perPage: z.number(),
		totalSize: z.number(),
		totalPages: z.number()
	})
});
export type IncidentListOutput = z.infer<typeof IncidentListOutput>;
