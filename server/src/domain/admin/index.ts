import { randomUUID } from 'node:crypto';
import type { Workspace } from '@prisma/client';
import type { Db } from '../../db/client.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ForbiddenError, NotFoundError } from '../errors.ts';
import { resolveLimits } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { AdminWorkspace, SetWorkspacePlanInput } from './schemas.ts';

export * from './schemas.ts';

// Who runs the instance: the addresses in ADMIN_EMAILS, or when it is empty the first user who
// signed up. They see every workspace and set its plan and limits (never by editing the db).
export type AdminCaller = {
	db: Db;
	user: { id: number; email: string };
	adminEmails: string[];
};

export async function isInstanceAdmin(caller: AdminCaller): Promise<boolean> {
	if (caller.adminEmails.length > 0)
		return caller.adminEmails.includes(caller.user.email.toLowerCase());
	const first = await caller.db.user.findFirst({ orderBy: { id: 'asc' }, select: { id: true } });
	return first?.id === caller.user.id;
}

async function requireInstanceAdmin(caller: AdminCaller): Promise<void> {
	if (!(await isInstanceAdmin(caller)))
		throw new ForbiddenError(
			'only the instance admin can do this: the first user, or an address listed in ADMIN_EMAILS'
		);
}

function toAdminWorkspace(row: Workspace & { _count: { memberships: number } }): AdminWorkspace {
	let stored: Record<string, unknown> = {};
	try {
		const parsed: unknown = JSON.parse(row.limits);
		if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
	} catch {
		stored = {};
	}
	return {
		id: row.id,
		name: row.name,
		slug: row.slug,
		plan: row.plan,
		stored_limits: stored,
		limits: resolveLimits(row.limits),
		members: row._count.memberships
	};
}

export async function listAllWorkspaces(caller: AdminCaller): Promise<{ data: AdminWorkspace[] }> {
	await requireInstanceAdmin(caller);
	const rows = await caller.db.workspace.findMany({
		orderBy: { id: 'asc' },
		include: { _count: { select: { memberships: true } } }
	});
	return { data: rows.map(toAdminWorkspace) };
}

export async function setWorkspacePlan(args: {
	caller: AdminCaller;
	input: SetWorkspacePlanInput;
}): Promise<AdminWorkspace> {
	await requireInstanceAdmin(args.caller);
	const input = parseInput(SetWorkspacePlanInput, args.input);
	const { db, user } = args.caller;
	const before = await db.workspace.findUnique({ where: { id: input.workspaceId } });
	if (!before) throw new NotFoundError('workspace', input.workspaceId);
	// Recorded in that workspace's audit log, by the admin user (who need not be a member).
	const ctx: ServiceContext = {
		db,
		workspace: { id: before.id, plan: before.plan, limits: resolveLimits(before.limits) },
		actor: { type: 'user', userId: user.id, role: 'owner' },
		requestId: randomUUID()
	};
	requireScope(ctx, 'write');
	return withTransaction(ctx, async (tx) => {
		const after = await tx.workspace.update({
			where: { id: input.workspaceId },
			data: { plan: input.plan, limits: JSON.stringify(input.limits) },
			include: { _count: { select: { memberships: true } } }
		});
		await writeAudit({
			ctx,
			tx,
			action: 'workspace.update',
			entityType: 'workspace',
			entityId: after.id,
			before: { plan: before.plan, limits: before.limits },
			after: { plan: after.plan, limits: after.limits }
		});
		return toAdminWorkspace(after);
	});
}
