import {
	ComponentIdInput,
	CreatePageComponentInput,
	ListPageComponentsInput,
	PageComponentListOutput,
	PageComponentOutput,
	UpdatePageComponentInput,
	createPageComponent,
	listPageComponents,
	removePageComponent,
	updatePageComponent
} from '../domain/page-component/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['page components'];

export const pageComponentRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/status-pages/{pageId}/components',
				summary: 'List the components of a page',
				tags
			},
			mcp: {
				name: 'list_page_components',
				description:
					'List the components of a status page (pageId from list_status_pages): id, name, type (monitor/static) and linked monitor. Source of pageComponentIds; a report or maintenance takes only components of its own page.'
			}
		})
		.input(ListPageComponentsInput)
		.output(PageComponentListOutput)
		.query(({ ctx, input }) => listPageComponents({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/status-pages/{pageId}/components',
				summary: 'Add a component to a page',
				tags,
				successStatus: 201
			}
		})
		.input(CreatePageComponentInput)
		.output(PageComponentOutput)
		.mutation(({ ctx, input }) => createPageComponent({ ctx: ctx.service, input })),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/page-components/{componentId}',
				summary: 'Update a component',
				tags
			}
		})
		.input(UpdatePageComponentInput)
		.output(PageComponentOutput)
		.mutation(({ ctx, input }) => updatePageComponent({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/page-components/{componentId}',
				summary: 'Remove a component',
				tags
			}
		})
		.input(ComponentIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removePageComponent({ ctx: ctx.service, input }))
});
