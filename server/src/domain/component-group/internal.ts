import type { ComponentGroup } from '@prisma/client';
import { ConflictError } from '../errors.ts';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { ComponentGroupOutput } from './schemas.ts';

export async function getGroupInWorkspace(args: InWorkspace): Promise<ComponentGroup> {
	return getInWorkspace('component group', args, (where) =>
		args.tx.componentGroup.findFirst({ where })
	);
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

// Two groups of one name on a page look like one on the public page; case and outer spaces
// are ignored. `exceptId` is the group being renamed.
export async function requireFreeGroupName(args: {
	tx: Tx;
	pageId: number;
	name: string;
	exceptId?: number;
}): Promise<void> {
	const key = (name: string) => name.trim().toLowerCase();
	const others = await args.tx.componentGroup.findMany({
		where: { pageId: args.pageId, id: { not: args.exceptId } },
		select: { name: true }
	});
	if (others.some((g) => key(g.name) === key(args.name))) {
		throw new ConflictError(`a group named '${args.name}' already exists on this page`);
	}
}
