import type { ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import type { Tx } from '../transaction.ts';
import type { OAuthDeps } from './deps.ts';
import { grantActor, hashSecret, revokeGrantRow, withClientAndUser } from './internal.ts';
import { RevokeTokenInput } from './schemas.ts';

// POST /oauth/revoke (RFC 7009): either token of a grant revokes the whole grant. Unknown
// tokens are not an error (the answer must not tell whether a token exists).
export async function revokeToken(args: { deps: OAuthDeps; input: unknown }): Promise<void> {
	const { token } = parseInput(RevokeTokenInput, args.input ?? {});
	if (!token) return;
	await args.deps.db.$transaction(async (tx) => {
		const row = await tx.oAuthToken.findUnique({
			where: { tokenHash: hashSecret(token) },
			include: { grant: { include: withClientAndUser } }
		});
		if (!row) return;
		await revokeGrantRow({
			tx,
			grant: row.grant,
			actor: grantActor(row.grant),
			reason: 'revoked by the client'
		});
	});
}

// A member removed from a workspace loses every connection they made to it (spec 5.1).
export async function revokeMemberGrants(args: {
	ctx: ServiceContext;
	tx: Tx;
	userId: number;
}): Promise<void> {
	const grants = await args.tx.oAuthGrant.findMany({
		where: { userId: args.userId, workspaceId: args.ctx.workspace.id, revokedAt: null },
		include: withClientAndUser
	});
	for (const grant of grants)
		await revokeGrantRow({
			tx: args.tx,
			grant,
			actor: args.ctx.actor,
			reason: 'member removed from the workspace'
		});
}
