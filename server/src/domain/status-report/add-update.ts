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
		const update = await createUpdateRow(tx, { ...input, reportId: row.id });
		await tx.statusReport.update({
			where: { id: row.id },
			data: { status: input.status, resolvedAt: null }
		});
		const report = toReportOutput(
			await getReportInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'status_report.add_update',
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
		kind: 'updated',
		report,
		updateId
	});
}
