import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ForbiddenError, NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { grantDeleteAudit, withClientAndUser } from './internal.ts';
import { GrantIdInput } from './schemas.ts';

// Connected apps: members revoke their own connections, owners and admins any in the workspace.
export async function revokeGrant(args: {
	ctx: ServiceContext;
	input: GrantIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { grantId } = parseInput(GrantIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const grant = await tx.oAuthGrant.findFirst({
			where: { id: grantId, workspaceId: ctx.workspace.id, revokedAt: null },
			include: withClientAndUser
		});
		if (!grant) throw new NotFoundError('connected app', grantId);
		const own = ctx.actor.type === 'user' && ctx.actor.userId === grant.userId;
		if (ctx.actor.type === 'user' && ctx.actor.role === 'member' && !own)
			throw new ForbiddenError('members revoke only their own connections; ask an admin');
		if (ctx.actor.type !== 'user')
			throw new ForbiddenError('connected apps are revoked from the dashboard');
		await tx.oAuthGrant.update({ where: { id: grant.id }, data: { revokedAt: new Date() } });
		await writeAudit({ ctx, tx, ...grantDeleteAudit(grant, 'revoked in connected apps') });
		return { id: grant.id, deleted: true as const };
	});
}
