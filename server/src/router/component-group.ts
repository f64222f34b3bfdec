import {
	ComponentGroupListOutput,
	ComponentGroupOutput,
	CreateComponentGroupInput,
	GroupIdInput,
	ListComponentGroupsInput,
	UpdateComponentGroupInput,
	createComponentGroup,
	listComponentGroups,
	removeComponentGroup,
	updateComponentGroup
} from '../domain/component-group/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['component groups'];

export const componentGroupRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/status-pages/{pageId}/component-groups',
				summary: 'List the component groups of a page',
				tags
			}
		})
		.input(ListComponentGroupsInput)
		.output(ComponentGroupListOutput)
		.query(({ ctx, input }) => listComponentGroups({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/status-pages/{pageId}/component-groups',
				summary: 'Create a component group',
				tags,
				successStatus: 201
			}
		})
		.input(CreateComponentGroupInput)
		.output(ComponentGroupOutput)
		.mutation(({ ctx, input }) => createComponentGroup({ ctx: ctx.service, input })),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/component-groups/{groupId}',
				summary: 'Rename a component group',
				tags
			}
		})
		.input(UpdateComponentGroupInput)
		.output(ComponentGroupOutput)
		.mutation(({ ctx, input }) => updateComponentGroup({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/component-groups/{groupId}',
				summary: 'Delete a component group',
				tags
			}
		})
		.input(GroupIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeComponentGroup({ ctx: ctx.service, input }))
});
