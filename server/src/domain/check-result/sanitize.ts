import {
	ASSERTIONS_MAX,
	CheckResultInput,
	ERROR_MAX,
	GRPC_STATUS_MAX,
	HEADER_NAME_MAX,
	HEADER_VALUE_MAX,
	isJson
} from './schemas.ts';

export type SanitizedResult =
	| { ok: true; result: CheckResultInput; truncated: string[] }
	| { ok: false; monitorId: unknown; reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1) + '…' : s);

// One result from a probe, checked on its own so that one bad result never blocks its batch
// (a rejected batch is resent forever). Over-long text is cut rather than lost; assertions that
// are too long or not JSON become `[]`, since a cut JSON document cannot be read back.
// What still fails the schema (no id, unknown outcome, …) is reported for the caller to drop.
export function sanitizeResult(raw: unknown): SanitizedResult {
	const strict = CheckResultInput.safeParse(raw);
	if (strict.success) return { ok: true, result: strict.data, truncated: [] };
	const truncated: string[] = [];
	let fixed: unknown = raw;
	if (isRecord(raw)) {
		const r: Record<string, unknown> = { ...raw };
		if (typeof r.error === 'string' && r.error.length > ERROR_MAX) {
			r.error = cut(r.error, ERROR_MAX);
			truncated.push('error');
		}
		if (typeof r.grpcStatus === 'string' && r.grpcStatus.length > GRPC_STATUS_MAX) {
			r.grpcStatus = cut(r.grpcStatus, GRPC_STATUS_MAX);
			truncated.push('grpcStatus');
		}
		if (
			typeof r.assertions === 'string' &&
			(r.assertions.length > ASSERTIONS_MAX || !isJson(r.assertions))
		) {
			r.assertions = '[]';
			truncated.push('assertions');
		}
		if (isRecord(r.headers)) {
			const headers: Record<string, unknown> = {};
			for (const [name, value] of Object.entries(r.headers)) {
				const key = cut(name, HEADER_NAME_MAX);
				const long = typeof value === 'string' && value.length > HEADER_VALUE_MAX;
				if (long || key !== name) truncated.push(`headers.${key}`);
				headers[key] = long ? cut(value, HEADER_VALUE_MAX) : value;
			}
			r.headers = headers;
		}
		fixed = r;
	}
	const retry = CheckResultInput.safeParse(fixed);
	if (retry.success) return { ok: true, result: retry.data, truncated };
	return {
		ok: false,
		monitorId: isRecord(raw) ? raw.monitorId : undefined,
		reason: retry.error.issues
			.map((i) => `${i.path.map(String).join('.') || 'result'}: ${i.message}`)
			.join('; ')
	};
}
