import { z } from 'zod';
import { requireScope, type ServiceContext } from '../context.ts';

export const ChecklistOutput = z.object({
	monitor: z.boolean(),
	firstResult: z.boolean(),
	statusPage: z.boolean(),
	channel: z.boolean(),
	teammate: z.boolean(),
	assistant: z.boolean()
});
export type ChecklistOutput = z.infer<typeof ChecklistOutput>;

// The first-run checklist, read from what exists: a monitor, one that has reported (its status
// left `unknown`), a published status page, a notification channel, a teammate invited or
// joined, an assistant connected (an OAuth grant or an API key, both unrevoked).
export async function getChecklist(args: { ctx: ServiceContext }): Promise<ChecklistOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const workspaceId = ctx.workspace.id;
	const [monitors, reported, pages, channels, members, invitations, grants, keys] =
		await Promise.all([
			ctx.db.monitor.count({ where: { workspaceId } }),
			ctx.db.monitor.count({ where: { workspaceId, status: { not: 'unknown' } } }),
			ctx.db.statusPage.count({ where: { workspaceId, published: true } }),
			ctx.db.notificationChannel.count({ where: { workspaceId } }),
			ctx.db.membership.count({ where: { workspaceId } }),
			ctx.db.invitation.count({ where: { workspaceId } }),
			ctx.db.oAuthGrant.count({ where: { workspaceId, revokedAt: null } }),
			ctx.db.apiKey.count({ where: { workspaceId, revokedAt: null } })
		]);
	return {
		monitor: monitors > 0,
		firstResult: reported > 0,
		statusPage: pages > 0,
		channel: channels > 0,
		teammate: members > 1 || invitations > 0,
		assistant: grants + keys > 0
	};
}
