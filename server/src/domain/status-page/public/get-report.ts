import { NotFoundError } from '../../errors.ts';
import { parseInput } from '../../parse.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import { REPORT_INCLUDE, toPublicReport } from './reports.ts';
import { GetPublicReportInput, type PublicReportOutput } from './schemas.ts';

// A report's permalink, behind the same gate as its page; another page's report is NOT_FOUND.
export async function getPublicReport(args: {
	deps: PublicDeps;
	input: GetPublicReportInput;
}): Promise<PublicReportOutput> {
	const input = parseInput(GetPublicReportInput, args.input);
	const { row, access, head } = await openPage({
		deps: args.deps,
		locator: input.page,
		reader: input.reader
	});
	if (access !== 'granted') return { access, head, report: null };
	const report = await args.deps.db.statusReport.findFirst({
		where: { id: input.reportId, pageId: row.id },
		include: REPORT_INCLUDE
	});
	if (!report) throw new NotFoundError('status report', input.reportId);
	return { access, head, report: toPublicReport(report) };
}
