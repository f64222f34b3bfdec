import type { ComponentGroup } from '@prisma/client';
import { NotFoundError } from '../errors.ts';
import type { Tx } from '../transaction.ts';
import type { ComponentGroupOutput } from './schemas.ts';

export async function getGroupInWorkspace(args: {
	tx: Tx;
	id: number;
	workspaceId: number;
}): Promise<ComponentGroup> {
	const row = await args.tx.componentGroup.findFirst({
		where: { id: args.id, workspaceId: args.workspaceId }
	});
	if (!row) throw new NotFoundError('component group', args.id);
	return row;
}

export function toGroupOutput(row: ComponentGroup): ComponentGroupOutput {
	return {
		id: row.id,
		page_id: row.pageId,
		name: row.name,
		created_at: row.createdAt.toISOString(),
		updated_at: row.updatedAt.toISOString()
	};
}
