import type { Db } from '../../db/client.ts';
import { resolveLimits } from '../limits.ts';
import { enqueueSubscriberNotices } from './fan-out.ts';
import { pageBaseUrl } from './internal.ts';
import { maintenanceNotice } from './notifier.ts';

// Windows that ended longer ago than this are marked without notice (e.g. after a long outage
// of the workflows app, or a window recorded after the fact).
const STALE_MS = 24 * 3600 * 1000;

export type MaintenanceNoticeCounts = { started: number; ended: number; enqueued: number };

// The `maintenance-notices` job: for windows created with notify, enqueue `maintenance-started`
// once `from` has passed and `maintenance-ended` once `to` has. Each notice is claimed by a
// conditional update in the same transaction as its outbox rows, so overlapping runs act once.
export async function enqueueMaintenanceNotices(args: {
	db: Db;
	statusPageUrl: string;
	now?: Date;
}): Promise<MaintenanceNoticeCounts> {
	const { db } = args;
	const now = args.now ?? new Date();
	const counts: MaintenanceNoticeCounts = { started: 0, ended: 0, enqueued: 0 };
	const due = await db.maintenance.findMany({
		where: {
			notify: true,
			OR: [
				{ startNoticeAt: null, from: { lte: now } },
				{ endNoticeAt: null, to: { lte: now } }
			]
		},
		include: {
			components: { select: { componentId: true } },
			page: { select: { id: true, title: true, slug: true, customDomain: true } },
			workspace: { select: { limits: true } }
		},
		orderBy: { id: 'asc' }
	});
	for (const m of due) {
		const phases: Array<
			['maintenance-started' | 'maintenance-ended', 'startNoticeAt' | 'endNoticeAt']
		> = [];
		if (!m.startNoticeAt && m.from <= now) phases.push(['maintenance-started', 'startNoticeAt']);
		if (!m.endNoticeAt && m.to <= now) phases.push(['maintenance-ended', 'endNoticeAt']);
		const limits = resolveLimits(m.workspace.limits);
		const allowed = limits['status-subscribers'];
		const page = {
			id: m.page.id,
			title: m.page.title,
			url: pageBaseUrl({
				statusPageUrl: args.statusPageUrl,
				slug: m.page.slug,
				customDomain: m.page.customDomain,
				limits
			})
		};
		for (const [event, field] of phases) {
			// A start that is already over is not worth a mail; nor is a long-past end.
			const send =
				allowed &&
				(event === 'maintenance-started' ? m.to > now : now.getTime() - m.to.getTime() < STALE_MS);
			const enqueued = await db.$transaction(async (tx) => {
				const claim = await tx.maintenance.updateMany({
					where: { id: m.id, [field]: null },
					data: { [field]: now }
				});
				if (claim.count !== 1) return -1;
				if (!send) return 0;
				return enqueueSubscriberNotices(tx, {
					workspaceId: m.workspaceId,
					source: `maintenance:${m.id}`,
					notice: maintenanceNotice(
						event,
						page,
						{
							id: m.id,
							title: m.title,
							message: m.message,
							from: m.from.toISOString(),
							to: m.to.toISOString(),
							componentIds: m.components.map((c) => c.componentId)
						},
						now
					)
				});
			});
			if (enqueued < 0) continue;
			counts[event === 'maintenance-started' ? 'started' : 'ended']++;
			counts.enqueued += enqueued;
		}
	}
	return counts;
}
