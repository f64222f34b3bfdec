import { parseInput } from '../../parse.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import { REPORT_INCLUDE, toPublicReport } from './reports.ts';
import { GetPublicPageInput, type PublicHistoryOutput } from './schemas.ts';

const MAX_REPORTS = 500;

// Every report of the page by the UTC month it started in, newest first.
export async function listPublicHistory(args: {
	deps: PublicDeps;
	input: GetPublicPageInput;
}): Promise<PublicHistoryOutput> {
	const input = parseInput(GetPublicPageInput, args.input);
	const { row, access, head } = await openPage({
		deps: args.deps,
		locator: input.page,
		reader: input.reader
	});
	if (access !== 'granted') return { access, head, months: null };
	const reports = await args.deps.db.statusReport.findMany({
		where: { pageId: row.id },
		include: REPORT_INCLUDE,
		orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
		take: MAX_REPORTS
	});
	const months: NonNullable<PublicHistoryOutput['months']> = [];
	for (const r of reports) {
		const month = r.createdAt.toISOString().slice(0, 7);
		if (months.at(-1)?.month !== month) months.push({ month, reports: [] });
		months.at(-1)?.reports.push(toPublicReport(r));
	}
	return { access, head, months };
}
