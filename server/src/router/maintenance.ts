import {
	CreateMaintenanceInput,
	ListMaintenancesInput,
	MaintenanceIdInput,
	MaintenanceListOutput,
	MaintenanceOutput,
	UpdateMaintenanceInput,
	createMaintenance,
	getMaintenance,
	listMaintenances,
	removeMaintenance,
	updateMaintenance
} from '../domain/maintenance/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['maintenance'];

export const maintenanceRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/maintenances', summary: 'List maintenance windows', tags },
			mcp: {
				name: 'list_maintenances',
				description:
					'List maintenance windows, newest first, of every page or of one pageId; page (1-indexed) and perPage (max 200); response has pagination.'
			}
		})
		.input(ListMaintenancesInput)
		.output(MaintenanceListOutput)
		.query(({ ctx, input }) => listMaintenances({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/maintenances/{maintenanceId}',
				summary: 'Get a maintenance window',
				tags
			}
		})
		.input(MaintenanceIdInput)
		.output(MaintenanceOutput)
		.query(({ ctx, input }) => getMaintenance({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/maintenances',
				summary: 'Schedule a maintenance window',
				tags,
				successStatus: 201
			},
			mcp: {
				name: 'create_maintenance',
				description:
					'Schedule a maintenance window on a page: from and to are ISO 8601 date-times with a time zone, such as 2030-01-01T02:00:00Z (to after from); pageComponentIds from list_page_components of that page. Needs the plan feature maintenance. `notify` is required: true notifies page subscribers now, false never does. The response says whether dispatch happened (`notified`).'
			}
		})
		.input(CreateMaintenanceInput)
		.output(MaintenanceOutput)
		.mutation(({ ctx, input }) =>
			createMaintenance({ ctx: ctx.service, input, notifier: ctx.upstate.notify })
		),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/maintenances/{maintenanceId}',
				summary: 'Update a maintenance window',
				tags
			}
		})
		.input(UpdateMaintenanceInput)
		.output(MaintenanceOutput)
		.mutation(({ ctx, input }) => updateMaintenance({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/maintenances/{maintenanceId}',
				summary: 'Delete a maintenance window',
				tags
			}
		})
		.input(MaintenanceIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeMaintenance({ ctx: ctx.service, input }))
});
