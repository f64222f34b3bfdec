import type { Prisma } from '@prisma/client';
import { NotFoundError } from '../errors.ts';
import { getInWorkspace, type InWorkspace, type Tx } from '../transaction.ts';
import type { PageComponentOutput } from './schemas.ts';

export const componentInclude = {
	monitor: { select: { id: true, name: true } }
} satisfies Prisma.PageComponentInclude;
type ComponentRow = Prisma.PageComponentGetPayload<{ include: typeof componentInclude }>;

export async function getComponentInWorkspace(args: InWorkspace): Promise<ComponentRow> {
	return getInWorkspace('page component', args, (where) =>
		args.tx.pageComponent.findFirst({ where, include: componentInclude })
	);
}

export function toComponentOutput(row: ComponentRow): PageComponentOutput {
	return {
		id: row.id,
		page_id: row.pageId,
		type: row.type as PageComponentOutput['type'],
		monitor_id: row.monitorId,
		monitor: row.monitor,
		name: row.name,
		description: row.description,
		order: row.order,
		group_id: row.groupId,
		group_order: row.groupOrder,
		created_at: row.createdAt.toISOString(),
		updated_at: row.updatedAt.toISOString()
	};
}

// A linked monitor must be the workspace's; a group must be on the same page (spec 4.1 rule 6).
export async function resolveMonitor(tx: Tx, workspaceId: number, monitorId: number) {
	const monitor = await tx.monitor.findFirst({
		where: { id: monitorId, workspaceId },
		select: { id: true, name: true }
	});
	if (!monitor) throw new NotFoundError('monitor', monitorId);
	return monitor;
}

export async function checkGroup(tx: Tx, pageId: number, groupId: number | null): Promise<void> {
	if (groupId === null) return;
	const group = await tx.componentGroup.findFirst({
		where: { id: groupId, pageId },
		select: { id: true }
	});
	if (!group) throw new NotFoundError('component group', groupId);
}
