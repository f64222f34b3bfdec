// The one error model (spec 7.1). Adapters map these codes once each; messages are user-facing.
export const ERROR_CODES = [
	'NOT_FOUND',
	'VALIDATION',
	'CONFLICT',
	'LIMIT_EXCEEDED',
	'PRECONDITION_FAILED',
	'UNAUTHORIZED',
	'FORBIDDEN',
	'INTERNAL'
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type FieldIssue = { path: string; message: string };

export class ServiceError extends Error {
	readonly code: ErrorCode;
	readonly issues?: FieldIssue[];
	constructor(
		code: ErrorCode,
		message: string,
		options?: { cause?: unknown; issues?: FieldIssue[] }
	) {
		super(message, { cause: options?.cause });
		this.code = code;
		this.issues = options?.issues;
	}
}

export class NotFoundError extends ServiceError {
	readonly entity: string; // what was missing, for a surface that words it for readers
	constructor(entity: string, id: number | string) {
		super('NOT_FOUND', `${entity} ${id} not found`);
		this.entity = entity;
	}
}

// A row looked up within the caller's workspace, or NOT_FOUND naming it: another workspace's id
// reads exactly like a missing one (the `get<Entity>InWorkspace` helpers).
export async function orNotFound<T>(
	entity: string,
	id: number | string,
	lookup: Promise<T | null>
): Promise<T> {
	const row = await lookup;
	if (!row) throw new NotFoundError(entity, id);
	return row;
}

export class ValidationError extends ServiceError {
	constructor(message: string, issues?: FieldIssue[]) {
		super('VALIDATION', message, { issues });
	}
}

export class LimitExceededError extends ServiceError {
	readonly key: string;
	readonly max: number | boolean;
	constructor(key: string, max: number | boolean, message?: string) {
		super(
			'LIMIT_EXCEEDED',
			message ??
				(typeof max === 'number'
					? `limit '${key}' reached: your plan allows ${max}`
					: `your plan does not include '${key}'`)
		);
		this.key = key;
		this.max = max;
	}
}

export class ForbiddenError extends ServiceError {
	constructor(message: string) {
		super('FORBIDDEN', message);
	}
}

export class UnauthorizedError extends ServiceError {
	constructor(message = 'authentication required') {
		super('UNAUTHORIZED', message);
	}
}

export class ConflictError extends ServiceError {
	constructor(message: string) {
		super('CONFLICT', message);
	}
}
