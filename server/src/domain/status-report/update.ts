import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { parseInput } from '../parse.ts';
import { withTransaction, type Tx } from '../transaction.ts';
import {
	checkComponentsOnPage,
	getReportInWorkspace,
	toReportOutput,
	type ReportRow
} from './internal.ts';
import { UpdateStatusReportInput, type StatusReportOutput } from './schemas.ts';
import { markPageChanged } from '../status-page/public/page-changes.ts';

// Metadata only: no public update and no notify path (spec 4.1 rule 5). Fields not sent keep
// their value; pageComponentIds, when sent, replaces the set. `status` may move between the open
// statuses (a correction, spec 3.6 "metadata"); resolving and reopening post a public update, so
// they stay with resolve_status_report and add_status_report_update.
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
		const crossesResolved =
			input.status !== undefined &&
			input.status !== row.status &&
			(input.status === 'resolved' || row.status === 'resolved');
		if (crossesResolved) {
			const message = `resolving or reopening posts a public update: use resolve_status_report or add_status_report_update; this edit keeps '${row.status}'`;
			throw new ValidationError(`status: ${message}`, [{ path: 'status', message }]);
		}
		const componentIds = input.pageComponentIds && [...new Set(input.pageComponentIds)];
		if (componentIds) {
			await checkComponentsOnPage(tx, row.pageId, componentIds);
			await checkImpactsKept(tx, row, componentIds);
		}
		await markPageChanged(tx, row.pageId);
		await tx.statusReport.update({
			where: { id: row.id },
			data: {
				title: input.title,
				status: input.status,
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

// A component whose latest impact in this report is not operational is what the page shows for
// it: the report must keep naming it until an update sets it back to operational.
async function checkImpactsKept(tx: Tx, row: ReportRow, keep: number[]): Promise<void> {
	const latest = new Map<number, string>();
	for (const u of row.updates)
		// newest first
		for (const i of u.impacts) if (!latest.has(i.componentId)) latest.set(i.componentId, i.impact);
	const removed = row.components
		.map((c) => c.componentId)
		.find((id) => !keep.includes(id) && (latest.get(id) ?? 'operational') !== 'operational');
	if (removed === undefined) return;
	const component = await tx.pageComponent.findUnique({
		where: { id: removed },
		select: { name: true }
	});
	const message = `'${component?.name ?? removed}' (component ${removed}) is still ${latest.get(removed)} in this report: post an update setting it to operational instead of removing it`;
	throw new ValidationError(`pageComponentIds: ${message}`, [
		{ path: 'pageComponentIds', message }
	]);
}
