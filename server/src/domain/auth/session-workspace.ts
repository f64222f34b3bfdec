import type { Db } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { resolveLimits } from '../limits.ts';

export type SessionWorkspace = {
	workspace: ServiceContext['workspace'];
	role: 'owner' | 'admin' | 'member';
};

// The workspace a signed-in user is looking at, with their role there; null when they are not
// (or no longer) a member of it.
export async function getSessionWorkspace(args: {
	db: Db;
	userId: number;
	workspaceId: number;
}): Promise<SessionWorkspace | null> {
	const membership = await args.db.membership.findUnique({
		where: { workspaceId_userId: { workspaceId: args.workspaceId, userId: args.userId } },
		include: { workspace: true }
	});
	if (!membership) return null;
	const { workspace } = membership;
	return {
		workspace: { id: workspace.id, plan: workspace.plan, limits: resolveLimits(workspace.limits) },
		role: membership.role as SessionWorkspace['role']
	};
}
