import { parseInput } from '../../parse.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import { pageUrl } from './page-url.ts';
import {
	MAINTENANCE_INCLUDE,
	REPORT_INCLUDE,
	toPublicMaintenance,
	toPublicReport
} from './reports.ts';
import { GetPublicPageInput, type PublicFeedOutput } from './schemas.ts';

const FEED_SIZE = 50;

// What the RSS and Atom feeds list: the latest reports (with their updates) and maintenance
// windows, behind the same gate as the page.
export async function getPublicFeed(args: {
	deps: PublicDeps;
	input: GetPublicPageInput;
}): Promise<PublicFeedOutput> {
	const input = parseInput(GetPublicPageInput, args.input);
	const opened = await openPage({ deps: args.deps, locator: input.page, reader: input.reader });
	const { row, access, head, now } = opened;
	if (access !== 'granted') return { access, head, feed: null };
	const [reports, maintenances] = await Promise.all([
		args.deps.db.statusReport.findMany({
			where: { pageId: row.id },
			include: REPORT_INCLUDE,
			orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
			take: FEED_SIZE
		}),
		args.deps.db.maintenance.findMany({
			where: { pageId: row.id },
			include: MAINTENANCE_INCLUDE,
			orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
			take: FEED_SIZE
		})
	]);
	const stamps = [
		row.updatedAt,
		...reports.map((r) => r.updatedAt),
		...reports.flatMap((r) => r.updates.map((u) => u.date)),
		...maintenances.map((m) => m.updatedAt)
	];
	const updatedAt = new Date(Math.max(...stamps.map((d) => d.getTime())));
	return {
		access,
		head,
		feed: {
			url: pageUrl(args.deps.statusPageUrl, opened),
			description: row.description,
			updated_at: updatedAt.toISOString(),
			reports: reports.map((r) => ({
				...toPublicReport(r),
				updated_at: r.updatedAt.toISOString()
			})),
			maintenances: maintenances.map((m) => ({
				...toPublicMaintenance(m, now),
				updated_at: m.updatedAt.toISOString()
			}))
		}
	};
}
