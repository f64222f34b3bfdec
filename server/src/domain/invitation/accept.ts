import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { writeAudit } from '../audit.ts';
import { hashToken } from '../auth/request-magic-link.ts';
import type { ServiceContext } from '../context.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { resolveLimits } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { AcceptInvitationInput } from './schemas.ts';

// A signed-in user accepts an invitation addressed to their own e-mail; single use.
export async function acceptInvitation(args: {
	db: Db;
	user: { id: number; email: string };
	input: AcceptInvitationInput;
}): Promise<{ workspaceId: number }> {
	const { token } = parseInput(AcceptInvitationInput, args.input);
	return args.db.$transaction(async (tx) => {
		const invitation = await tx.invitation.findUnique({
			where: { tokenHash: hashToken(token) },
			include: { workspace: true }
		});
		if (!invitation || invitation.acceptedAt || invitation.expiresAt <= new Date()) {
			throw new UnauthorizedError('this invitation is invalid or has expired: ask for a new one');
		}
		if (invitation.email !== args.user.email.toLowerCase()) {
			throw new ForbiddenError(
				`this invitation is for ${invitation.email}: sign in with that address`
			);
		}
		await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date() } });
		const existing = await tx.membership.findFirst({
			where: { workspaceId: invitation.workspaceId, userId: args.user.id }
		});
		if (!existing) {
			await tx.membership.create({
				data: { workspaceId: invitation.workspaceId, userId: args.user.id, role: invitation.role }
			});
			const ctx: ServiceContext = {
				db: args.db,
				workspace: {
					id: invitation.workspaceId,
					plan: invitation.workspace.plan,
					limits: resolveLimits(invitation.workspace.limits)
				},
				actor: { type: 'user', userId: args.user.id, role: invitation.role as 'admin' | 'member' },
				requestId: randomUUID()
			};
			await writeAudit({
				ctx,
				tx,
				action: 'member.create',
				entityType: 'member',
				entityId: args.user.id,
				before: null,
				after: { userId: args.user.id, email: invitation.email, role: invitation.role }
			});
		}
		return { workspaceId: invitation.workspaceId };
	});
}
