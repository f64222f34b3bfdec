import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import {
	generateAgentKey,
	getLocationInWorkspace,
	hashAgentKey,
	setMonitors,
	toLocationOutput,
	toLocationSnapshot
} from './internal.ts';
import { CreatePrivateLocationInput, type PrivateLocationOutput } from './schemas.ts';

export async function createPrivateLocation(args: {
	ctx: ServiceContext;
	input: CreatePrivateLocationInput;
}): Promise<PrivateLocationOutput> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const input = parseInput(CreatePrivateLocationInput, args.input);
	requireFeature(ctx.workspace.limits, 'private-locations');
	const token = generateAgentKey();
	return withTransaction(ctx, async (tx) => {
		const created = await tx.privateLocation.create({
			data: {
				workspaceId: ctx.workspace.id,
				name: input.name,
				metadata: JSON.stringify(input.metadata),
				token,
				tokenHash: hashAgentKey(token)
			}
		});
		await setMonitors(tx, {
			workspaceId: ctx.workspace.id,
			locationId: created.id,
			monitorIds: input.monitor_ids
		});
		const row = await getLocationInWorkspace({ tx, id: created.id, workspaceId: ctx.workspace.id });
		await writeAudit({
			ctx,
			tx,
			action: 'private_location.create',
			entityType: 'private_location',
			entityId: row.id,
			before: null,
			after: toLocationSnapshot(row)
		});
		return toLocationOutput(row);
	});
}
