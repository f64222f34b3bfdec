import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	getLocationInWorkspace,
	setMonitors,
	toLocationOutput,
	toLocationSnapshot
} from './internal.ts';
import { UpdatePrivateLocationInput, type PrivateLocationOutput } from './schemas.ts';

export async function updatePrivateLocation(args: {
	ctx: ServiceContext;
	input: UpdatePrivateLocationInput;
}): Promise<PrivateLocationOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(UpdatePrivateLocationInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getLocationInWorkspace({
			tx,
			id: input.privateLocationId,
			workspaceId: ctx.workspace.id
		});
		await tx.privateLocation.update({
			where: { id: row.id },
			data: {
				name: input.name,
				metadata: input.metadata ? JSON.stringify(input.metadata) : undefined
			}
		});
		if (input.monitor_ids)
			await setMonitors(tx, {
				workspaceId: ctx.workspace.id,
				locationId: row.id,
				monitorIds: input.monitor_ids
			});
		const after = await getLocationInWorkspace({ tx, id: row.id, workspaceId: ctx.workspace.id });
		await writeAudit({
			ctx,
			tx,
			action: 'private_location.update',
			entityType: 'private_location',
			entityId: row.id,
			before: toLocationSnapshot(row),
			after: toLocationSnapshot(after)
		});
		return toLocationOutput(after);
	});
}
