import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Vault } from '../../notify/vault.ts';
import { writeAudit } from '../audit.ts';
import {
	actingUserId,
	requireRole,
	requireScope,
	type Role,
	type ServiceContext,
	type WorkspaceRef
} from '../context.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { requireFeature, resolveLimits } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';

// The chat-workspace agent's link (server/src/slack): one Slack team <-> one workspace, made by
// an owner or admin of a workspace whose plan has `slack-agent`. The bot token is sealed.

export const SlackInstallOutput = z.object({
	teamId: z.string(),
	teamName: z.string(),
	createdAt: z.date()
});
export type SlackInstallOutput = z.infer<typeof SlackInstallOutput>;

export const LinkSlackTeamInput = z.object({
	teamId: z.string().min(1).max(64),
	teamName: z.string().max(200),
	botUserId: z.string().min(1).max(64),
	botToken: z.string().min(1).max(512)
});
export type LinkSlackTeamInput = z.infer<typeof LinkSlackTeamInput>;

const output = (row: {
	teamId: string;
	teamName: string;
	createdAt: Date;
}): SlackInstallOutput => ({
	teamId: row.teamId,
	teamName: row.teamName,
	createdAt: row.createdAt
});

// Who may start the install: the same checks as the link itself, before sending anyone to Slack.
export async function requireSlackInstaller(ctx: ServiceContext): Promise<void> {
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	requireFeature(ctx.workspace.limits, 'slack-agent');
}

export async function getSlackInstall(args: {
	ctx: ServiceContext;
}): Promise<SlackInstallOutput | null> {
	const row = await args.ctx.db.slackInstall.findUnique({
		where: { workspaceId: args.ctx.workspace.id }
	});
	return row ? output(row) : null;
}

// Links the team to this workspace (replacing the workspace's previous team, if any). A team
// linked to another workspace is CONFLICT: disconnect it there first.
export async function linkSlackTeam(args: {
	ctx: ServiceContext;
	vault: Vault;
	input: LinkSlackTeamInput;
}): Promise<SlackInstallOutput> {
	const { ctx, vault } = args;
	await requireSlackInstaller(ctx);
	const input = parseInput(LinkSlackTeamInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const taken = await tx.slackInstall.findUnique({ where: { teamId: input.teamId } });
		if (taken && taken.workspaceId !== ctx.workspace.id)
			throw new ConflictError(
				`the Slack workspace ${input.teamName || input.teamId} is already connected to another Upstate workspace: disconnect it there first`
			);
		const before = await tx.slackInstall.findUnique({ where: { workspaceId: ctx.workspace.id } });
		if (before) await tx.slackInstall.delete({ where: { id: before.id } });
		const row = await tx.slackInstall.create({
			data: {
				workspaceId: ctx.workspace.id,
				teamId: input.teamId,
				teamName: input.teamName,
				botUserId: input.botUserId,
				botToken: vault.seal({ token: input.botToken }),
				installedByUserId: actingUserId(ctx.actor)
			}
		});
		await writeAudit({
			ctx,
			tx,
			action: 'slack_install.create',
			entityType: 'slack_install',
			entityId: row.id,
			before: before ? output(before) : null,
			after: output(row)
		});
		return output(row);
	});
}

export async function unlinkSlackTeam(args: { ctx: ServiceContext }): Promise<void> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	await requireRole(ctx, ['owner', 'admin']);
	await withTransaction(ctx, async (tx) => {
		const row = await tx.slackInstall.findUnique({ where: { workspaceId: ctx.workspace.id } });
		if (!row) throw new NotFoundError('slack_install', ctx.workspace.id);
		await tx.slackInstall.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'slack_install.delete',
			entityType: 'slack_install',
			entityId: row.id,
			before: output(row),
			after: null
		});
	});
}

export type SlackTeamLink = {
	workspace: WorkspaceRef;
	botUserId: string;
	botToken: string;
};

// The agent's lookup for an incoming event (no caller yet): the team's workspace and token.
export async function slackTeamLink(args: {
	db: Db;
	vault: Vault;
	teamId: string;
}): Promise<SlackTeamLink | null> {
	const row = await args.db.slackInstall.findUnique({
		where: { teamId: args.teamId },
		include: { workspace: true }
	});
	if (!row) return null;
	const token = args.vault.open(row.botToken).token;
	if (typeof token !== 'string') return null;
	const { workspace } = row;
	return {
		workspace: { id: workspace.id, plan: workspace.plan, limits: resolveLimits(workspace.limits) },
		botUserId: row.botUserId,
		botToken: token
	};
}

// The member of the workspace with this e-mail address (Slack profile e-mail), if any.
export async function memberByEmail(args: {
	db: Db;
	workspaceId: number;
	email: string;
}): Promise<{ userId: number; email: string; role: Role } | null> {
	const user = await args.db.user.findUnique({
		where: { email: args.email.trim().toLowerCase() },
		include: { memberships: { where: { workspaceId: args.workspaceId } } }
	});
	const membership = user?.memberships[0];
	if (!user || !membership) return null;
	return { userId: user.id, email: user.email, role: membership.role as Role };
}
