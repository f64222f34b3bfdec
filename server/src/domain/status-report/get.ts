import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getReportInWorkspace, toReportOutput } from './internal.ts';
import { ReportIdInput, type StatusReportOutput } from './schemas.ts';

export async function getStatusReport(args: {
	ctx: ServiceContext;
	input: ReportIdInput;
}): Promise<StatusReportOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { reportId } = parseInput(ReportIdInput, args.input);
	return toReportOutput(
		await getReportInWorkspace({ tx: ctx.db, id: reportId, workspaceId: ctx.workspace.id })
	);
}
