import type { Mailer } from '../../mail/index.ts';
import {
	privateLocationStatusMail,
	type LocationTransition
} from '../../mail/templates/private-location-status.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getLocationInWorkspace, locationInclude, toLocationSnapshot } from './internal.ts';
import { CheckPrivateLocationHealthInput, type PrivateLocationHealthOutput } from './schemas.ts';

export const HEALTH_WINDOW_MS = 15 * 60_000;

// Spec 3.3. A report within the window makes a location `active`; an older last report makes it
// `error`. A location that never reported stays `unknown`: nothing has been deployed yet (or the
// built-in "Local" has no probe in this deployment), which is not an outage to wake people for.
export function nextHealthStatus(
	row: { status: string; lastSeenAt: Date | null },
	cutoff: Date
): 'active' | 'error' | null {
	if (!row.lastSeenAt) return null;
	const next = row.lastSeenAt >= cutoff ? 'active' : 'error';
	return row.status === next ? null : next;
}

const transitionOf = (from: string, to: 'active' | 'error'): LocationTransition =>
	to === 'error' ? 'toError' : from === 'unknown' ? 'firstReport' : 'recovered';

// One workspace's run of the health cron. Each transition is a conditional update (same id,
// same status, still stale or fresh), so when two runs overlap only the one whose update
// changed the row writes the audit entry and mails the members.
export async function checkPrivateLocationHealth(args: {
	ctx: ServiceContext;
	mailer: Mailer;
	dashboardUrl: string;
	input?: CheckPrivateLocationHealthInput;
}): Promise<PrivateLocationHealthOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { now } = parseInput(CheckPrivateLocationHealthInput, args.input);
	const cutoff = new Date((now ?? new Date()).getTime() - HEALTH_WINDOW_MS);
	const workspaceId = ctx.workspace.id;
	const rows = await ctx.db.privateLocation.findMany({
		where: { workspaceId },
		include: locationInclude,
		orderBy: { id: 'asc' }
	});
	const counts = { checked: rows.length, toError: 0, toActive: 0 };
	let recipients: { emails: string[]; workspaceName: string } | undefined;
	for (const row of rows) {
		const to = nextHealthStatus(row, cutoff);
		if (!to) continue;
		const changed = await withTransaction(ctx, async (tx) => {
			const { count } = await tx.privateLocation.updateMany({
				where: {
					id: row.id,
					workspaceId,
					status: row.status,
					lastSeenAt: to === 'active' ? { gte: cutoff } : { lt: cutoff }
				},
				data: { status: to }
			});
			if (count === 0) return null;
			const after = await getLocationInWorkspace({ tx, id: row.id, workspaceId });
			await writeAudit({
				ctx,
				tx,
				action: 'private_location.update',
				entityType: 'private_location',
				entityId: row.id,
				before: toLocationSnapshot(row),
				after: toLocationSnapshot(after)
			});
			return after;
		});
		if (!changed) continue;
		counts[to === 'error' ? 'toError' : 'toActive'] += 1;
		recipients ??= await membersOf(ctx);
		const mailed = await mailMembers({
			mailer: args.mailer,
			dashboardUrl: args.dashboardUrl,
			workspaceId,
			...recipients,
			transition: transitionOf(row.status, to),
			location: changed
		});
		console.log(
			`[private-location] status locationId=${row.id} workspaceId=${workspaceId} from=${row.status} to=${to} mailed=${mailed}`
		);
	}
	return counts;
}

async function membersOf(ctx: ServiceContext) {
	const workspace = await ctx.db.workspace.findUniqueOrThrow({
		where: { id: ctx.workspace.id },
		select: { name: true, memberships: { select: { user: { select: { email: true } } } } }
	});
	return {
		workspaceName: workspace.name,
		emails: workspace.memberships.map((m) => m.user.email).sort()
	};
}

// Sent after commit; a failed mail is logged and does not undo the transition.
async function mailMembers(args: {
	mailer: Mailer;
	dashboardUrl: string;
	workspaceId: number;
	emails: string[];
	workspaceName: string;
	transition: LocationTransition;
	location: { id: number; name: string; lastSeenAt: Date | null };
}): Promise<number> {
	const { location } = args;
	const link = `${args.dashboardUrl.replace(/\/$/, '')}/private-locations/${location.id}`;
	let mailed = 0;
	for (const to of args.emails) {
		try {
			await args.mailer.send({
				...privateLocationStatusMail({
					to,
					transition: args.transition,
					locationName: location.name,
					workspaceName: args.workspaceName,
					lastSeenAt: location.lastSeenAt,
					link
				}),
				workspaceId: args.workspaceId
			});
			mailed += 1;
		} catch (err) {
			console.error(
				`[private-location] mail failed locationId=${location.id} to=${to} error=${JSON.stringify((err as Error).message)}`
			);
		}
	}
	return mailed;
}
