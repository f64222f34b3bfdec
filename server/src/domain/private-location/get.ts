import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getLocationInWorkspace, toLocationOutput } from './internal.ts';
import { PrivateLocationIdInput, type PrivateLocationOutput } from './schemas.ts';

export async function getPrivateLocation(args: {
	ctx: ServiceContext;
	input: PrivateLocationIdInput;
}): Promise<PrivateLocationOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { privateLocationId } = parseInput(PrivateLocationIdInput, args.input);
	return toLocationOutput(
		await getLocationInWorkspace({
			tx: ctx.db,
			id: privateLocationId,
			workspaceId: ctx.workspace.id
		})
	);
}
