import type { Db } from '../../db/client.ts';
import type { SubscriberNotice } from '../../mail/templates/subscriber.ts';
import type {
	MaintenanceEvent,
	StatusReportEvent,
	SubscriberNotifier
} from '../../notify/subscribers.ts';
import { NotFoundError } from '../errors.ts';
import { resolveLimits } from '../limits.ts';
import { enqueueSubscriberNotices } from './fan-out.ts';
import { pageBaseUrl } from './internal.ts';

type PageRef = SubscriberNotice['page'];

async function pageRef(db: Db, statusPageUrl: string, pageId: number): Promise<PageRef> {
	const page = await db.statusPage.findUnique({
		where: { id: pageId },
		select: {
			id: true,
			title: true,
			slug: true,
			customDomain: true,
			workspace: { select: { limits: true } }
		}
	});
	if (!page) throw new NotFoundError('status page', pageId);
	const url = pageBaseUrl({
		statusPageUrl,
		slug: page.slug,
		customDomain: page.customDomain,
		limits: resolveLimits(page.workspace.limits)
	});
	return { id: page.id, title: page.title, url };
}

export function maintenanceNotice(
	event: 'maintenance-scheduled' | 'maintenance-started' | 'maintenance-ended',
	page: PageRef,
	m: {
		id: number;
		title: string;
		message: string;
		from: string;
		to: string;
		componentIds: number[];
	},
	at: Date
): SubscriberNotice {
	return {
		event,
		at: at.toISOString(),
		page,
		title: m.title,
		status: null,
		message: m.message,
		url: page.url,
		reportId: null,
		updateId: null,
		maintenanceId: m.id,
		from: m.from,
		to: m.to,
		componentIds: m.componentIds
	};
}

// The real SubscriberNotifier: publishing verbs call it after their commit; it only writes the
// outbox (one bulk insert) and returns, and the delivery worker sends. `onEnqueued` lets the
// process kick its worker rather than wait for the next poll.
export function createSubscriberNotifier(args: {
	db: Db;
	statusPageUrl: string;
	onEnqueued?: (count: number) => void;
}): SubscriberNotifier {
	const { db, statusPageUrl } = args;
	const done = (count: number) => {
		if (count > 0) args.onEnqueued?.(count);
	};
	return {
		async statusReport(event: StatusReportEvent) {
			const page = await pageRef(db, statusPageUrl, event.pageId);
			const notice: SubscriberNotice = {
				event: `report-${event.kind}`,
				at: new Date().toISOString(),
				page,
				title: event.title,
				status: event.status,
				message: event.message,
				url: `${page.url}/reports/${event.reportId}`,
				reportId: event.reportId,
				updateId: event.updateId,
				maintenanceId: null,
				from: null,
				to: null,
				componentIds: event.componentIds
			};
			const source = `update:${event.updateId}`;
			done(
				await db.$transaction((tx) =>
					enqueueSubscriberNotices(tx, { workspaceId: event.workspaceId, source, notice })
				)
			);
		},
		async maintenance(event: MaintenanceEvent) {
			const page = await pageRef(db, statusPageUrl, event.pageId);
			const notice = maintenanceNotice(
				'maintenance-scheduled',
				page,
				{ ...event, id: event.maintenanceId },
				new Date()
			);
			const source = `maintenance:${event.maintenanceId}`;
			done(
				await db.$transaction((tx) =>
					enqueueSubscriberNotices(tx, { workspaceId: event.workspaceId, source, notice })
				)
			);
		}
	};
}
