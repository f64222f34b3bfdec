import { randomBytes } from 'node:crypto';
import type { Mailer } from '../../mail/index.ts';
import { writeAudit } from '../audit.ts';
import { hashToken } from '../auth/request-magic-link.ts';
import { requireRole, requireScope, type ServiceContext } from '../context.ts';
import { ConflictError } from '../errors.ts';
import { requireCount } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { INVITATION_TTL_MS, pendingWhere, toInvitationOutput } from './internal.ts';
import { InviteMemberInput, type InvitationOutput } from './schemas.ts';

// Pending invitations count against the `members` limit like members do. The mail goes out
// after the invitation is stored; if it fails, the invitation stays and can be sent again.
export async function inviteMember(args: {
	ctx: ServiceContext;
	mailer: Mailer;
	dashboardUrl: string;
	input: InviteMemberInput;
}): Promise<InvitationOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	const input = parseInput(InviteMemberInput, args.input);
	const token = randomBytes(32).toString('base64url');
	const invitation = await withTransaction(ctx, async (tx) => {
		const workspaceId = ctx.workspace.id;
		if (await tx.membership.findFirst({ where: { workspaceId, user: { email: input.email } } })) {
			throw new ConflictError(`${input.email} is already a member`);
		}
		const [members, pending] = await Promise.all([
			tx.membership.count({ where: { workspaceId } }),
			tx.invitation.count({ where: pendingWhere(workspaceId) })
		]);
		requireCount(ctx.workspace.limits, 'members', members + pending);
		const row = await tx.invitation.create({
			data: {
				workspaceId,
				email: input.email,
				role: input.role,
				tokenHash: hashToken(token),
				invitedById: ctx.actor.type === 'user' ? ctx.actor.userId : null,
				expiresAt: new Date(Date.now() + INVITATION_TTL_MS)
			}
		});
		const output = toInvitationOutput(row);
		await writeAudit({
			ctx,
			tx,
			action: 'invitation.create',
			entityType: 'invitation',
			entityId: row.id,
			before: null,
			after: output
		});
		return output;
	});
	const link = `${args.dashboardUrl.replace(/\/$/, '')}/invite/accept?token=${token}`;
	await args.mailer.send({
		to: input.email,
		subject: 'You are invited to an Upstate workspace',
		text: `You have been invited to join a workspace on Upstate as ${input.role}.\n\nAccept within 7 days:\n${link}\n`,
		html: `<p>You have been invited to join a workspace on Upstate as ${input.role}.</p><p><a href="${link}">Accept the invitation</a> (valid 7 days)</p>`,
		workspaceId: ctx.workspace.id
	});
	return invitation;
}
