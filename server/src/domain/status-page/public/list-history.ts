import { parseInput } from '../../parse.ts';
import { NotFoundError } from '../../errors.ts';
import { openPage, type PublicDeps } from './open-page.ts';
import { REPORT_INCLUDE, toPublicReport } from './reports.ts';
import { ListPublicHistoryInput, type PublicHistoryOutput } from './schemas.ts';

// About this many reports a listing, in whole months (a month is never split across two).
export const HISTORY_PAGE_REPORTS = 50;

const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const startOf = (month: string) => new Date(`${month}-01T00:00:00.000Z`);
const nextMonth = (month: string) => {
	const d = startOf(month);
	return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
};

/**
 * The page's reports by the UTC month they started in, newest first, from `month` (or the
 * newest) back until about HISTORY_PAGE_REPORTS; `older` names where the next listing starts.
 * A month with no reports lists first with none, if it is in the page's history: from the month
 * of the page's creation or of its oldest report, whichever is earlier, to the current month.
 * Any other month is NOT_FOUND, so the listings a reader can ask for stay bounded.
 */
export async function listPublicHistory(args: {
	deps: PublicDeps;
	input: ListPublicHistoryInput;
}): Promise<PublicHistoryOutput> {
	const input = parseInput(ListPublicHistoryInput, args.input);
	const { row, access, head, now } = await openPage({
		deps: args.deps,
		locator: input.page,
		reader: input.reader
	});
	if (access !== 'granted') return { access, head, months: null, older: null };
	const db = args.deps.db;
	const before = input.month ? { lt: nextMonth(input.month) } : undefined;
	const order = [{ createdAt: 'desc' }, { id: 'desc' }] as const;
	const window = await db.statusReport.findMany({
		where: { pageId: row.id, createdAt: before },
		select: { createdAt: true },
		orderBy: [...order],
		take: HISTORY_PAGE_REPORTS
	});
	// A month with no reports of its own; reports older than it put it inside the history.
	const empty = input.month && monthOf(window[0]?.createdAt ?? new Date(0)) !== input.month;
	const outside = (month: string) =>
		month > monthOf(now) || (window.length === 0 && month < monthOf(row.createdAt));
	if (input.month && empty && outside(input.month))
		throw new NotFoundError('history month', input.month);
	// A full window ends inside its last month: take that month whole, and start `older` after it.
	const last = window.length === HISTORY_PAGE_REPORTS ? window.at(-1) : undefined;
	const from = last && startOf(monthOf(last.createdAt));
	const [reports, next] = await Promise.all([
		db.statusReport.findMany({
			where: { pageId: row.id, createdAt: { ...before, gte: from } },
			include: REPORT_INCLUDE,
			orderBy: [...order]
		}),
		from
			? db.statusReport.findFirst({
					where: { pageId: row.id, createdAt: { lt: from } },
					select: { createdAt: true },
					orderBy: [...order]
				})
			: null
	]);
	const months: NonNullable<PublicHistoryOutput['months']> =
		input.month && empty ? [{ month: input.month, reports: [] }] : [];
	for (const r of reports) {
		const month = monthOf(r.createdAt);
		if (months.at(-1)?.month !== month) months.push({ month, reports: [] });
		months.at(-1)?.reports.push(toPublicReport(r));
	}
	return { access, head, months, older: next ? monthOf(next.createdAt) : null };
}
