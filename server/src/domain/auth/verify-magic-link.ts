import { randomUUID } from 'node:crypto';
import type { AppLucia } from '../../auth/lucia.ts';
import type { Db } from '../../db/client.ts';
import { writeAudit } from '../audit.ts';
import type { ServiceContext } from '../context.ts';
import { UnauthorizedError } from '../errors.ts';
import { resolveLimits } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { ensureLocalLocation } from '../private-location/ensure-local.ts';
import { hashToken } from './request-magic-link.ts';
import { VerifyMagicLinkInput } from './schemas.ts';

const INVALID = 'this sign-in link is invalid or has expired: request a new one';

// Single use. The first sign-in creates the user and, with no membership and no pending
// invitation, a workspace on the plan given (free, or self-host) with the user as owner.
export async function verifyMagicLink(args: {
	db: Db;
	lucia: AppLucia;
	defaultLimits: Record<string, unknown>;
	// The new workspace's plan (newWorkspacePlan in limits.ts); free unless given.
	plan?: string;
	// Whether this installation runs the built-in Local probe (the all-in-one process does; the
	// compose stacks do not, spec 1.1): only then does a new workspace get its Local location.
	localLocation?: boolean;
	input: VerifyMagicLinkInput;
}): Promise<{ sessionId: string; userId: number; workspaceId: number | null }> {
	const { token } = parseInput(VerifyMagicLinkInput, args.input);
	const { userId, workspaceId } = await args.db.$transaction(
		async (tx): Promise<{ userId: number; workspaceId: number | null }> => {
			const claimed = await tx.magicLinkToken.updateMany({
				where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: new Date() } },
				data: { usedAt: new Date() }
			});
			if (claimed.count !== 1) throw new UnauthorizedError(INVALID);
			const { email } = await tx.magicLinkToken.findUniqueOrThrow({
				where: { tokenHash: hashToken(token) }
			});
			const user = await tx.user.upsert({ where: { email }, create: { email }, update: {} });
			const membership = await tx.membership.findFirst({
				where: { userId: user.id },
				orderBy: { id: 'asc' }
			});
			if (membership) return { userId: user.id, workspaceId: membership.workspaceId };
			// Someone invited them: they join that workspace from the invitation link instead.
			const invited = await tx.invitation.count({
				where: { email, acceptedAt: null, expiresAt: { gt: new Date() } }
			});
			if (invited > 0) return { userId: user.id, workspaceId: null };
			const name = email.split('@')[0];
			const workspace = await tx.workspace.create({
				data: {
					name,
					slug: `${name.replace(/[^a-z0-9]+/g, '-').slice(0, 40)}-${randomUUID().slice(0, 8)}`,
					plan: args.plan ?? 'free',
					limits: JSON.stringify(args.defaultLimits)
				}
			});
			await tx.membership.create({
				data: { workspaceId: workspace.id, userId: user.id, role: 'owner' }
			});
			if (args.localLocation ?? true) await ensureLocalLocation({ tx, workspaceId: workspace.id });
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
			return { userId: user.id, workspaceId: workspace.id };
		}
	);
	const session = await args.lucia.createSession(userId, { workspaceId });
	return { sessionId: session.id, userId, workspaceId };
}
