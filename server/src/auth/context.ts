import { randomUUID } from 'node:crypto';
import type { Cookie } from 'lucia';
import type { Upstate } from '../app.ts';
import { getSessionWorkspace } from '../domain/auth/index.ts';
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
		? await getSessionWorkspace({
				db: upstate.db,
				userId: user.id,
				workspaceId: session.workspaceId
			})
		: null;
	return {
		cookie,
		ctx: {
			...anonymous,
			user: { id: user.id, email: user.email },
			sessionId: session.id,
			service: membership
				? {
						db: upstate.db,
						workspace: membership.workspace,
						actor: { type: 'user', userId: user.id, role: membership.role },
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
