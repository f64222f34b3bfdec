import { z } from 'zod';

const ms = z.number().finite().min(0);

// One check result as a probe reports it (the ingest adapter converts the wire format to this).
export const CheckResultInput = z.object({
	resultId: z.string().min(8).max(64),
	monitorId: z.number().int().positive(),
	startedAt: z.number().int().positive(),
	latency: ms,
	outcome: z.enum(['success', 'degraded', 'error']),
	attempts: z.number().int().min(1).max(11),
	statusCode: z.number().int().nullable(),
	error: z.string().max(2000),
	timing: z.partialRecord(z.enum(['dns', 'connect', 'tls', 'ttfb', 'transfer']), ms),
	headers: z.record(z.string(), z.string().max(4096)),
	assertions: z.string().max(65536),
	grpcStatus: z.string().max(32),
	packetLoss: z.number().min(0).max(1).nullable()
});
export type CheckResultInput = z.infer<typeof CheckResultInput>;

export const IngestResultsInput = z.object({ results: z.array(CheckResultInput).max(1000) });
export type IngestResultsInput = z.infer<typeof IngestResultsInput>;

export type MonitorStatus = 'active' | 'degraded' | 'error';
export type StatusChange = {
	monitorId: number;
	workspaceId: number;
	from: string;
	to: MonitorStatus;
	error: string;
};
export type IngestOutcome = {
	accepted: number;
	duplicates: number;
	rejected: number;
	changes: StatusChange[];
};
