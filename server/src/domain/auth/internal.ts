import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../transaction.ts';
import { writeAudit } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import { ensureLocalLocation } from '../private-location/ensure-local.ts';

// Where a signed-in user lands. The first sign-in with no membership and no pending invitation
// creates a workspace on the free plan (spec 1.2) with the user as owner; someone invited
// joins that workspace from the invitation link instead (workspaceId null).
export async function homeWorkspace(args: {
	db: Db;
	tx: Tx;
	user: { id: number; email: string };
	defaultLimits: Record<string, unknown>;
}): Promise<number | null> {
	const { tx, user } = args;
	const email = user.email;
	const membership = await tx.membership.findFirst({
		where: { userId: user.id },
		orderBy: { id: 'asc' }
	});
	if (membership) return membership.workspaceId;
	const invited = await tx.invitation.count({
		where: { email, acceptedAt: null, expiresAt: { gt: new Date() } }
	});
	if (invited > 0) return null;
	const name = email.split('@')[0];
	const workspace = await tx.workspace.create({
		data: {
			name,
			slug: `${name.replace(/[^a-z0-9]+/g, '-').slice(0, 40)}-${randomUUID().slice(0, 8)}`,
			plan: 'free',
			limits: JSON.stringify(args.defaultLimits)
		}
	});
	await tx.membership.create({
		data: { workspaceId: workspace.id, userId: user.id, role: 'owner' }
	});
	await ensureLocalLocation({ tx, workspaceId: workspace.id });
	const ctx: ServiceContext = {
		db: args.db,
		workspace: {
			id: workspace.id,
			plan: workspace.plan,
			limits: resolveLimits(workspace.limits)
		},
		actor: { type: 'user', userId: user.id, role: 'owner' },
		requestId: randomUUID()
	};
	await writeAudit({
		ctx,
		tx,
		action: 'workspace.create',
		entityType: 'workspace',
		entityId: workspace.id,
		before: null,
		after: { name: workspace.name, slug: workspace.slug, plan: workspace.plan }
	});
	await writeAudit({
		ctx,
		tx,
		action: 'member.create',
		entityType: 'member',
		entityId: user.id,
		before: null,
		after: { userId: user.id, email, role: 'owner' }
	});
	return workspace.id;
}
