import type { Prisma } from '@prisma/client';
import { getInWorkspace, type InWorkspace } from '../transaction.ts';
import type { MaintenanceOutput } from './schemas.ts';

export const maintenanceInclude = {
	components: { select: { componentId: true }, orderBy: { componentId: 'asc' } }
} satisfies Prisma.MaintenanceInclude;
type MaintenanceRow = Prisma.MaintenanceGetPayload<{ include: typeof maintenanceInclude }>;

export async function getMaintenanceInWorkspace(args: InWorkspace): Promise<MaintenanceRow> {
	return getInWorkspace('maintenance', args, (where) =>
		args.tx.maintenance.findFirst({ where, include: maintenanceInclude })
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
