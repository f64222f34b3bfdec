import {
	AssignPrivateLocationMonitorsInput,
	CreatePrivateLocationInput,
	ListPrivateLocationsInput,
	PrivateLocationIdInput,
	PrivateLocationListOutput,
	PrivateLocationOutput,
	UpdatePrivateLocationInput,
	assignPrivateLocationMonitors,
	createPrivateLocation,
	getPrivateLocation,
	listPrivateLocations,
	removePrivateLocation,
	updatePrivateLocation
} from '../domain/private-location/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['private locations'];

export const privateLocationRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/private-locations',
				summary: 'List private locations (never their agent keys)',
				tags
			},
			mcp: {
				name: 'list_private_locations',
				description:
					'List private locations: name, status (active/error), metadata, lastSeenAt, monitor count. Agent tokens are never exposed.'
			}
		})
		.input(ListPrivateLocationsInput)
		.output(PrivateLocationListOutput)
		.query(({ ctx, input }) => listPrivateLocations({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/private-locations/{privateLocationId}',
				summary: 'Get a private location with its agent key',
				tags
			}
		})
		.input(PrivateLocationIdInput)
		.output(PrivateLocationOutput)
		.query(({ ctx, input }) => getPrivateLocation({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/private-locations',
				summary: 'Create a private location and its agent key',
				tags,
				successStatus: 201
			}
		})
		.input(CreatePrivateLocationInput)
		.output(PrivateLocationOutput)
		.mutation(({ ctx, input }) => createPrivateLocation({ ctx: ctx.service, input })),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/private-locations/{privateLocationId}',
				summary: 'Update a private location; monitor_ids and metadata are replaced',
				tags
			}
		})
		.input(UpdatePrivateLocationInput)
		.output(PrivateLocationOutput)
		.mutation(({ ctx, input }) => updatePrivateLocation({ ctx: ctx.service, input })),
	// The dashboard's assignment form (no REST or MCP: the spec's update replaces the list).
	assignMonitors: writeProcedure
		.input(AssignPrivateLocationMonitorsInput)
		.output(PrivateLocationOutput)
		.mutation(({ ctx, input }) => assignPrivateLocationMonitors({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/private-locations/{privateLocationId}',
				summary: 'Delete a private location (its key stops working)',
				tags
			}
		})
		.input(PrivateLocationIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removePrivateLocation({ ctx: ctx.service, input }))
});
