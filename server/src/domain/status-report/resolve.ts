import { createNoopNotifier, type SubscriberNotifier } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { appendReportUpdate, publishUpdate } from './internal.ts';
import { ResolveStatusReportInput, type PublishedStatusReportOutput } from './schemas.ts';

// The final public update: status `resolved`, and the report leaves the active list.
export async function resolveStatusReport(args: {
	ctx: ServiceContext;
	input: ResolveStatusReportInput;
	notifier?: SubscriberNotifier;
}): Promise<PublishedStatusReportOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(ResolveStatusReportInput, args.input);
	const { report, updateId } = await withTransaction(ctx, async (tx) => {
		const appended = await appendReportUpdate({
			ctx,
			tx,
			update: { ...input, status: 'resolved' },
			resolvedAt: new Date()
		});
		await writeAudit({
			ctx,
			tx,
			action: 'status_report.resolve',
			entityType: 'status_report',
			entityId: input.reportId,
			before: appended.before,
			after: appended.report
		});
		return appended;
	});
	return publishUpdate({
		ctx,
		notifier: args.notifier ?? createNoopNotifier(),
		notify: input.notify,
		kind: 'resolved',
		report,
		updateId
	});
}
