import { z } from 'zod';
import { Pagination } from '../monitor/schemas.ts';

// Private location (spec 2.15). The provider owns monitor_ids and metadata: an update replaces them.
const fields = {
	name: z.string().min(1).max(256),
	monitor_ids: z.array(z.number().int().positive()).max(1000).default([]),
	metadata: z.record(z.string().min(1).max(256), z.string().max(1024)).default({})
};

export const CreatePrivateLocationInput = z.object(fields);
export type CreatePrivateLocationInput = z.input<typeof CreatePrivateLocationInput>;

export const UpdatePrivateLocationInput = z
	.object({
		privateLocationId: z.number().int().positive(),
		name: fields.name.optional(),
		monitor_ids: z.array(z.number().int().positive()).max(1000).optional(),
		metadata: z.record(z.string().min(1).max(256), z.string().max(1024)).optional()
	})
	.strict();
export type UpdatePrivateLocationInput = z.input<typeof UpdatePrivateLocationInput>;

// The dashboard form's partial change (assign-monitors.ts); not part of the REST/MCP contract.
const monitorIds = z.array(z.number().int().positive()).max(1000).default([]);
export const AssignPrivateLocationMonitorsInput = z
	.object({
		privateLocationId: z.number().int().positive(),
		add: monitorIds,
		remove: monitorIds
	})
	.strict();
export type AssignPrivateLocationMonitorsInput = z.input<typeof AssignPrivateLocationMonitorsInput>;

export const PrivateLocationIdInput = z.object({ privateLocationId: z.number().int().positive() });
export type PrivateLocationIdInput = z.infer<typeof PrivateLocationIdInput>;

export const ListPrivateLocationsInput = z
	.object({
		page: z.number().int().min(1).default(1),
		perPage: z.number().int().min(1).max(100).default(50)
	})
	.default({ page: 1, perPage: 50 });
export type ListPrivateLocationsInput = z.input<typeof ListPrivateLocationsInput>;

const base = {
	id: z.number(),
	name: z.string(),
	monitor_ids: z.array(z.number()),
	metadata: z.record(z.string(), z.string()),
	status: z.enum(['active', 'error', 'unknown']),
	built_in: z.boolean(),
	last_seen_at: z.string().nullable(),
	created_at: z.string(),
	updated_at: z.string()
};

// The agent key (SERVICE_KEY) is on the single-item read only, never in lists (spec 2.15).
export const PrivateLocationOutput = z.object({ ...base, token: z.string() });
export type PrivateLocationOutput = z.infer<typeof PrivateLocationOutput>;
export const PrivateLocationListItem = z.object({ ...base, monitor_count: z.number() });
export type PrivateLocationListItem = z.infer<typeof PrivateLocationListItem>;
export const PrivateLocationListOutput = z.object({
	data: z.array(PrivateLocationListItem),
	pagination: Pagination
});
export type PrivateLocationListOutput = z.infer<typeof PrivateLocationListOutput>;

// The health cron (spec 3.3). `now` is the run's clock; tests pin it, the cron leaves it out.
export const CheckPrivateLocationHealthInput = z
	.object({ now: z.coerce.date().optional() })
	.strict()
	.default({});
export type CheckPrivateLocationHealthInput = z.input<typeof CheckPrivateLocationHealthInput>;
export const PrivateLocationHealthOutput = z.object({
	checked: z.number().int(),
	toError: z.number().int(),
	toActive: z.number().int()
});
export type PrivateLocationHealthOutput = z.infer<typeof PrivateLocationHealthOutput>;
