import { auditActor, type ServiceContext } from './context.ts';
import type { Tx } from './transaction.ts';

type Snapshot = Record<string, unknown> | null;

const TIMESTAMP_FIELDS = new Set(['updatedAt', 'updated_at']);

// Fields never written to an audit snapshot, whatever the entity.
const SECRET_FIELDS = new Set([
	'password',
	'passwordHash',
	'keyHash',
	'tokenHash',
	'token',
	'secrets',
	'codeHash'
]);

// Read side: the same fields, at any depth (audit log reads run every snapshot through this).
export function withoutSecrets(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutSecrets);
	if (!value || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([k]) => !SECRET_FIELDS.has(k))
			.map(([k, v]) => [k, withoutSecrets(v)])
	);
}

function clean(snapshot: Snapshot): Snapshot {
	if (!snapshot) return null;
	return Object.fromEntries(Object.entries(snapshot).filter(([k]) => !SECRET_FIELDS.has(k)));
}

export function changedFields(before: Snapshot, after: Snapshot): string[] {
	const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
	return [...keys]
		.filter((k) => !TIMESTAMP_FIELDS.has(k) && !SECRET_FIELDS.has(k))
		.filter((k) => JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k]))
		.sort();
}

export async function writeAudit(args: {
	ctx: ServiceContext;
	tx: Tx;
	action: string;
	entityType: string;
	entityId: number | string;
	before: Snapshot;
	after: Snapshot;
}): Promise<void> {
	const { ctx, tx } = args;
	const before = clean(args.before);
	const after = clean(args.after);
	await tx.auditLog.create({
		data: {
			workspaceId: ctx.workspace.id,
			...auditActor(ctx.actor),
			action: args.action,
			entityType: args.entityType,
			entityId: String(args.entityId),
			changedFields: JSON.stringify(changedFields(before, after)),
			before: before ? JSON.stringify(before) : null,
			after: after ? JSON.stringify(after) : null
		}
	});
}
