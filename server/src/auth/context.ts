import { randomUUID } from 'node:crypto';
import type { Cookie } from 'lucia';
import type { Upstate } from '../app.ts';
import type { Actor } from '../domain/context.ts';
import { resolveLimits } from '../domain/limits.ts';
import { createCaller } from '../router/root.ts';
import type { TrpcContext } from '../router/trpc.ts';

// The dashboard's context: a lucia session → the user and the workspace they are looking at.
// `cookie` is set when the browser's cookie must change (refreshed or cleared).
export async function contextForSession(args: {
	upstate: Upstate;
	sessionId: string | null;
}): Promise<{ ctx: TrpcContext; cookie: Cookie | null }> {
	const { upstate } = args;
	const requestId = randomUUID();
	const anonymous: TrpcContext = {
		upstate,
		db: upstate.db,
		requestId,
		user: null,
		sessionId: null,
		service: null
	};
	if (!args.sessionId) return { ctx: anonymous, cookie: null };
	const { session, user } = await upstate.lucia.validateSession(args.sessionId);
	if (!session || !user)
		return { ctx: anonymous, cookie: upstate.lucia.createBlankSessionCookie() };
	const cookie = session.fresh ? upstate.lucia.createSessionCookie(session.id) : null;
	const membership = session.workspaceId
		? await upstate.db.membership.findUnique({
				where: { workspaceId_userId: { workspaceId: session.workspaceId, userId: user.id } },
				include: { workspace: true }
			})
		: null;
	const actor: Actor | null = membership
		? { type: 'user', userId: user.id, role: membership.role as 'owner' | 'admin' | 'member' }
		: null;
	return {
		cookie,
		ctx: {
			...anonymous,
			user: { id: user.id, email: user.email },
			sessionId: session.id,
			service:
				membership && actor
					? {
							db: upstate.db,
							workspace: {
								id: membership.workspace.id,
								plan: membership.workspace.plan,
								limits: resolveLimits(membership.workspace.limits)
							},
							actor,
							requestId
						}
					: null
		}
	};
}

export async function callerForSession(args: { upstate: Upstate; sessionId: string | null }) {
	const { ctx, cookie } = await contextForSession(args);
	return { api: createCaller(ctx), ctx, cookie };
}
