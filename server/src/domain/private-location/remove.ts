import { writeAudit } from '../audit.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getLocationInWorkspace, toLocationSnapshot } from './internal.ts';
import { PrivateLocationIdInput } from './schemas.ts';

// Deleting a location revokes its agent key: the probe is refused from then on.
export async function removePrivateLocation(args: {
	ctx: ServiceContext;
	input: PrivateLocationIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { privateLocationId } = parseInput(PrivateLocationIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getLocationInWorkspace({
			tx,
			id: privateLocationId,
			workspaceId: ctx.workspace.id
		});
		await tx.privateLocation.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'private_location.delete',
			entityType: 'private_location',
			entityId: row.id,
			before: toLocationSnapshot(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
