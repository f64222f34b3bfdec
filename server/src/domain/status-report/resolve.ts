import { createNoopNotifier, type SubscriberNotifier } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	checkComponentsOnPage,
	createUpdateRow,
	getReportInWorkspace,
	publishUpdate,
	toReportOutput
} from './internal.ts';
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
		const row = await getReportInWorkspace({
			tx,
			id: input.reportId,
			workspaceId: ctx.workspace.id
		});
		await checkComponentsOnPage(
			tx,
			row.pageId,
			input.impacts.map((i) => i.componentId)
		);
		const update = await createUpdateRow(tx, {
			reportId: row.id,
			status: 'resolved',
			message: input.message,
			notify: input.notify,
			impacts: input.impacts
		});
		await tx.statusReport.update({
			where: { id: row.id },
			data: { status: 'resolved', resolvedAt: new Date() }
		});
		const report = toReportOutput(
			await getReportInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'status_report.resolve',
			entityType: 'status_report',
			entityId: row.id,
			before: toReportOutput(row),
			after: report
		});
		return { report, updateId: update.id };
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
