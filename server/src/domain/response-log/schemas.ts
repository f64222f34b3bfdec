import { z } from 'zod';

export const WINDOWS = { '1d': 86_400_000, '7d': 7 * 86_400_000, '14d': 14 * 86_400_000 } as const;

export const ListResponseLogsInput = z.object({
	monitorId: z.number().int().positive(),
	window: z.enum(['1d', '7d', '14d']).default('1d'),
	limit: z.number().int().min(1).max(100).default(50),
	offset: z.number().int().min(0).default(0)
});
export type ListResponseLogsInput = z.input<typeof ListResponseLogsInput>;

export const GetResponseLogInput = z.object({ logId: z.string().min(8).max(64) });
export type GetResponseLogInput = z.infer<typeof GetResponseLogInput>;

const Outcome = z.enum(['success', 'degraded', 'error']);

export const ResponseLogSummary = z.object({
	id: z.string(),
	monitorId: z.number(),
	region: z.string(),
	timestamp: z.string(),
	status: Outcome,
	statusCode: z.number().nullable(),
	latency: z.number()
});
export type ResponseLogSummary = z.infer<typeof ResponseLogSummary>;
export const ResponseLogListOutput = z.object({
	data: z.array(ResponseLogSummary),
	pagination: z.object({ limit: z.number(), offset: z.number(), totalSize: z.number() })
});
export type ResponseLogListOutput = z.infer<typeof ResponseLogListOutput>;

export const ResponseLogOutput = ResponseLogSummary.extend({
	url: z.string(),
	timing: z.object({
		dns: z.number().optional(),
		connect: z.number().optional(),
		tls: z.number().optional(),
		ttfb: z.number().optional(),
		transfer: z.number().optional()
	}),
	headers: z.record(z.string(), z.string()),
	error: z.string(),
	assertions: z.array(
		z.object({ kind: z.string(), description: z.string(), passed: z.boolean(), actual: z.string() })
	)
});
export type ResponseLogOutput = z.infer<typeof ResponseLogOutput>;
