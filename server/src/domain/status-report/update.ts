import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { checkComponentsOnPage, getReportInWorkspace, toReportOutput } from './internal.ts';
import { UpdateStatusReportInput, type StatusReportOutput } from './schemas.ts';

// Metadata only: no public update and no notify path (spec 4.1 rule 5). Fields not sent keep
// their value; pageComponentIds, when sent, replaces the set. A status change is a public update
// (spec 3.6), so `status` may only repeat the current one: a report never resolves or reopens here.
export async function updateStatusReport(args: {
	ctx: ServiceContext;
	input: UpdateStatusReportInput;
}): Promise<StatusReportOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(UpdateStatusReportInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getReportInWorkspace({
			tx,
			id: input.reportId,
			workspaceId: ctx.workspace.id
		});
		if (input.status !== undefined && input.status !== row.status) {
			const message = `changing the status posts a public update: use add_status_report_update (or resolve_status_report to resolve); this edit keeps '${row.status}'`;
			throw new ValidationError(`status: ${message}`, [{ path: 'status', message }]);
		}
		const componentIds = input.pageComponentIds && [...new Set(input.pageComponentIds)];
		if (componentIds) await checkComponentsOnPage(tx, row.pageId, componentIds);
		await tx.statusReport.update({
			where: { id: row.id },
			data: {
				title: input.title,
				components: componentIds && {
					deleteMany: {},
					create: componentIds.map((componentId) => ({ componentId }))
				}
			}
		});
		const after = toReportOutput(
			await getReportInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id })
		);
		await writeAudit({
			ctx,
			tx,
			action: 'status_report.update',
			entityType: 'status_report',
			entityId: row.id,
			before: toReportOutput(row),
			after
		});
		return after;
	});
}
