import { createNoopNotifier, type SubscriberNotifier } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { appendReportUpdate, publishUpdate } from './internal.ts';
import { AddStatusReportUpdateInput, type PublishedStatusReportOutput } from './schemas.ts';

// Appends a public update and moves the report to its status (reopening a resolved one).
export async function addStatusReportUpdate(args: {
	ctx: ServiceContext;
	input: AddStatusReportUpdateInput;
	notifier?: SubscriberNotifier;
}): Promise<PublishedStatusReportOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(AddStatusReportUpdateInput, args.input);
	const { report, updateId } = await withTransaction(ctx, async (tx) => {
		const appended = await appendReportUpdate({
			ctx,
			tx,
			update: input,
			resolvedAt: null
		});
		await writeAudit({
			ctx,
			tx,
			action: 'status_report.add_update',
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
		kind: 'updated',
		report,
		updateId
	});
}
