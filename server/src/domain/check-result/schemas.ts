import { z } from 'zod';

const ms = z.number().finite().min(0);

export const ERROR_MAX = 2000;
export const HEADER_NAME_MAX = 256;
export const HEADER_VALUE_MAX = 4096;
export const ASSERTIONS_MAX = 65536;
export const GRPC_STATUS_MAX = 32;

export const isJson = (s: string): boolean => {
	try {
		JSON.parse(s);
		return true;
	} catch {
		return false;
	}
};

// One check result as a probe reports it (the ingest adapter converts the wire format to this).
export const CheckResultInput = z.object({
	resultId: z.string().min(8).max(64),
	monitorId: z.number().int().positive(),
	startedAt: z.number().int().positive(),
	latency: ms,
	outcome: z.enum(['success', 'degraded', 'error']),
	attempts: z.number().int().min(1).max(11),
	statusCode: z.number().int().nullable(),
	error: z.string().max(ERROR_MAX),
	timing: z.partialRecord(z.enum(['dns', 'connect', 'tls', 'ttfb', 'transfer']), ms),
	headers: z.record(z.string().max(HEADER_NAME_MAX), z.string().max(HEADER_VALUE_MAX)),
	assertions: z.string().max(ASSERTIONS_MAX).refine(isJson, { error: 'Invalid JSON' }),
	grpcStatus: z.string().max(GRPC_STATUS_MAX),
	packetLoss: z.number().min(0).max(1).nullable()
});
export type CheckResultInput = z.infer<typeof CheckResultInput>;

// A batch is checked for its size only; each result is checked on its own (sanitize.ts).
export const IngestResultsInput = z.object({ results: z.array(z.unknown()).max(1000) });
export type IngestResultsInput = { results: CheckResultInput[] };

export type MonitorStatus = 'active' | 'degraded' | 'error';
export type StatusChange = {
	monitorId: number;
	workspaceId: number;
	from: string;
	to: MonitorStatus;
	error: string;
	eventId?: number; // the status_event row recorded with the change
	at?: string; // when the status changed (ISO)
};
export type IngestOutcome = {
	accepted: number;
	duplicates: number;
	rejected: number; // not stored: monitor not assigned to the location, or an unusable result
	changes: StatusChange[];
};
