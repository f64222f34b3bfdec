import { writeAudit } from '../audit.ts';
import type { Actor } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { clientRedirect } from './authorize.ts';
import type { OAuthDeps } from './deps.ts';
import { OAuthError } from './errors.ts';
import {
	CODE_PREFIX,
	CODE_TTL_MS,
	grantCtx,
	hashSecret,
	newSecret,
	revokeGrantRow,
	toGrantOutput,
	withClientAndUser
} from './internal.ts';
import { openRequest } from './pending.ts';
import { ApproveAuthorizationInput, PendingRequestInput } from './schemas.ts';

// The user approved the consent screen: one live grant per client and user (an earlier one is
// replaced, its tokens stop working), bound to the chosen workspace and access level (never
// more than the client asked for), and a single-use code for the client. Returns the redirect.
// The request is the one /oauth/authorize checked (sealed): its client is not resolved again.
export async function approveAuthorization(args: {
	deps: OAuthDeps;
	userId: number;
	input: ApproveAuthorizationInput;
}): Promise<{ redirectTo: string; grantId: number }> {
	const { deps, userId } = args;
	const input = parseInput(ApproveAuthorizationInput, args.input);
	const request = openRequest(deps.requestKey, input.request);
	const membership = await deps.db.membership.findUnique({
		where: { workspaceId_userId: { workspaceId: input.workspaceId, userId } }
	});
	if (!membership) throw new NotFoundError('workspace', input.workspaceId);
	const scope = request.scope === 'read' ? 'read' : input.access;
	const actor: Actor = {
		type: 'user',
		userId,
		role: membership.role as 'owner' | 'admin' | 'member'
	};
	const code = newSecret(CODE_PREFIX);
	const grant = await deps.db.$transaction(async (tx) => {
		// Registrations nobody consented to are dropped after a day (register-client.ts).
		if (!(await tx.oAuthClient.findUnique({ where: { id: request.clientId } })))
			throw new OAuthError(
				'invalid_client',
				`unknown client ${request.clientId}: register it first`
			);
		const earlier = await tx.oAuthGrant.findMany({
			where: { clientId: request.clientId, userId, revokedAt: null },
			include: withClientAndUser
		});
		for (const old of earlier)
			await revokeGrantRow({ tx, grant: old, actor, reason: 'replaced by a new connection' });
		const created = await tx.oAuthGrant.create({
			data: { clientId: request.clientId, userId, workspaceId: input.workspaceId, scope },
			include: withClientAndUser
		});
		await writeAudit({
			ctx: await grantCtx(tx, created, actor),
			tx,
			action: 'oauth_grant.create',
			entityType: 'oauth_grant',
			entityId: created.id,
			before: null,
			after: toGrantOutput(created)
		});
		await tx.oAuthAuthorizationCode.create({
			data: {
				codeHash: hashSecret(code),
				clientId: created.clientId,
				userId,
				workspaceId: created.workspaceId,
				scope,
				redirectUri: request.redirectUri,
				codeChallenge: request.codeChallenge,
				grantId: created.id,
				expiresAt: new Date(Date.now() + CODE_TTL_MS)
			}
		});
		return created;
	});
	console.log(
		`[oauth] consent approved grantId=${grant.id} clientId=${grant.clientId} workspaceId=${grant.workspaceId} scope=${scope}`
	);
	return {
		grantId: grant.id,
		redirectTo: clientRedirect(deps, request.redirectUri, { code, state: request.state })
	};
}

// Deny: the client hears access_denied (RFC 6749 4.1.2.1).
export async function denyAuthorization(args: {
	deps: OAuthDeps;
	input: PendingRequestInput;
}): Promise<{ redirectTo: string }> {
	const request = openRequest(
		args.deps.requestKey,
		parseInput(PendingRequestInput, args.input).request
	);
	return {
		redirectTo: clientRedirect(args.deps, request.redirectUri, {
			error: 'access_denied',
			error_description: 'the user denied the request',
			state: request.state
		})
	};
}
