import { randomUUID } from 'node:crypto';
import type { AppLucia } from '../../auth/lucia.ts';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../transaction.ts';
import { writeAudit } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import { ensureLocalLocation } from '../private-location/ensure-local.ts';

// What a first sign-in's workspace starts with: its plan and limits (newWorkspacePlan in
// limits.ts: free, or self-host), and whether it gets a Local location (only where this
// installation runs the built-in probe: the all-in-one process does, the compose stacks not).
export type NewWorkspaceTerms = {
	plan: string;
	limits: Record<string, unknown>;
	localLocation: boolean;
};

export type SignedIn = { sessionId: string; userId: number; workspaceId: number | null };

// The end of every sign-in: `findUser` finds (or creates) the user inside the transaction that
// also settles their home workspace; then the session.
export async function signInUser(args: {
	db: Db;
	lucia: AppLucia;
	newWorkspace: NewWorkspaceTerms;
	findUser: (tx: Tx) => Promise<{ id: number; email: string }>;
}): Promise<SignedIn> {
	const { userId, workspaceId } = await args.db.$transaction(async (tx) => {
		const user = await args.findUser(tx);
		const workspaceId = await homeWorkspace({
			db: args.db,
			tx,
			user,
			newWorkspace: args.newWorkspace
		});
		return { userId: user.id, workspaceId };
	});
	const session = await args.lucia.createSession(userId, { workspaceId });
	return { sessionId: session.id, userId, workspaceId };
}

// Where a signed-in user lands. The first sign-in with no membership and no pending invitation
// creates a workspace on the terms given with the user as owner; someone invited joins that
// workspace from the invitation link instead (workspaceId null).
export async function homeWorkspace(args: {
	db: Db;
	tx: Tx;
	user: { id: number; email: string };
	newWorkspace: NewWorkspaceTerms;
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
			plan: args.newWorkspace.plan,
			limits: JSON.stringify(args.newWorkspace.limits)
		}
	});
	await tx.membership.create({
		data: { workspaceId: workspace.id, userId: user.id, role: 'owner' }
	});
	if (args.newWorkspace.localLocation) await ensureLocalLocation({ tx, workspaceId: workspace.id });
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
