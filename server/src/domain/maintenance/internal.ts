import type { Prisma } from '@prisma/client';
import { orNotFound } from '../errors.ts';
import type { Tx } from '../transaction.ts';
import type { MaintenanceOutput } from './schemas.ts';

export const maintenanceInclude = {
	components: { select: { componentId: true }, orderBy: { componentId: 'asc' } }
} satisfies Prisma.MaintenanceInclude;
type MaintenanceRow = Prisma.MaintenanceGetPayload<{ include: typeof maintenanceInclude }>;

export async function getMaintenanceInWorkspace(args: {
	tx: Tx;
	id: number;
	workspaceId: number;
}): Promise<MaintenanceRow> {
	return orNotFound(
		'maintenance',
		args.id,
		args.tx.maintenance.findFirst({
			where: { id: args.id, workspaceId: args.workspaceId },
			include: maintenanceInclude
		})
	);
}

export function toMaintenanceOutput(row: MaintenanceRow): MaintenanceOutput {
	return {
		id: row.id,
		pageId: row.pageId,
		title: row.title,
		message: row.message,
		from: row.from.toISOString(),
		to: row.to.toISOString(),
		pageComponentIds: row.components.map((c) => c.componentId),
		notify: row.notify,
		notified: row.notified,
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString()
	};
}
