import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getMaintenanceInWorkspace, toMaintenanceOutput } from './internal.ts';
import { MaintenanceIdInput, type MaintenanceOutput } from './schemas.ts';

export async function getMaintenance(args: {
	ctx: ServiceContext;
	input: MaintenanceIdInput;
}): Promise<MaintenanceOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { maintenanceId } = parseInput(MaintenanceIdInput, args.input);
	return toMaintenanceOutput(
		await getMaintenanceInWorkspace({
			tx: ctx.db,
			id: maintenanceId,
			workspaceId: ctx.workspace.id
		})
	);
}
