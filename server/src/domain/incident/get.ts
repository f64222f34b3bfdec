import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getIncidentInWorkspace, toIncidentOutputs } from './internal.ts';
import { IncidentIdInput, type IncidentOutput } from './schemas.ts';

export async function getIncident(args: {
	ctx: ServiceContext;
	input: IncidentIdInput;
}): Promise<IncidentOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { incidentId } = parseInput(IncidentIdInput, args.input);
	const row = await getIncidentInWorkspace({
		tx: ctx.db,
		id: incidentId,
		workspaceId: ctx.workspace.id
	});
	const [output] = await toIncidentOutputs(ctx.db, [row]);
	return output as IncidentOutput; // safe because one row in gives one row out
}
