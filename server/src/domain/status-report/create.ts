import { createNoopNotifier, type SubscriberNotifier } from '../../notify/index.ts';
import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getStatusPageInWorkspace } from '../status-page/internal.ts';
import { withTransaction } from '../transaction.ts';
import {
	affectedBy,
	checkComponentsOnPage,
	createUpdateRow,
	getReportInWorkspace,
	publishUpdate,
	toReportOutput
} from './internal.ts';
import { CreateStatusReportInput, type PublishedStatusReportOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

// A new report with its initial public update; persisted first, then dispatched (spec 4.1).
export async function createStatusReport(args: {
	ctx: ServiceContext;
	input: CreateStatusReportInput;
	notifier?: SubscriberNotifier;
}): Promise<PublishedStatusReportOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreateStatusReportInput, args.input);
	const { report, updateId } = await withTransaction(ctx, async (tx) => {
		const page = await getStatusPageInWorkspace({
			tx,
			id: input.pageId,
			workspaceId: ctx.workspace.id
		});
		await checkComponentsOnPage(tx, page.id, [
			...input.pageComponentIds,
			...input.impacts.map((i) => i.componentId)
		]);
		await markPageChanged(tx, page.id);
		const created = await tx.statusReport.create({
			data: {
				workspaceId: ctx.workspace.id,
				pageId: page.id,
				title: input.title,
				status: input.status,
				components: {
					create: affectedBy(input).map((componentId) => ({ componentId }))
				}
			},
			select: { id: true }
		});
		const update = await createUpdateRow(tx, {
			reportId: created.id,
			status: input.status,
			message: input.message,
			notify: input.notify,
			impacts: input.impacts
		});
		const report = toReportOutput(
			await getReportInWorkspace({ tx, id: created.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'status_report.create',
			entityType: 'status_report',
			entityId: report.id,
			before: null,
			after: report
		});
		return { report, updateId: update.id };
	});
	return publishUpdate({
		ctx,
		notifier: args.notifier ?? createNoopNotifier(),
		notify: input.notify,
		kind: 'created',
		report,
		updateId
	});
}
