import {
	CreateStatusPageInput,
	GetPublicStatusPageInput,
	ListStatusPagesInput,
	PageIdInput,
	PublicStatusPageOutput,
	StatusPageListOutput,
	StatusPageOutput,
	UpdateStatusPageInput,
	createStatusPage,
	getPublicStatusPage,
	getStatusPage,
	listStatusPages,
	removeStatusPage,
	updateStatusPage
} from '../domain/status-page/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, publicProcedure, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['status pages'];

export const statusPageRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/status-pages', summary: 'List status pages', tags },
			mcp: {
				name: 'list_status_pages',
				description:
					'List the status pages of the workspace (slug and id of each; unpaginated). Source of pageId.'
			}
		})
		.input(ListStatusPagesInput)
		.output(StatusPageListOutput)
		.query(({ ctx, input }) => listStatusPages({ ctx: ctx.service, input })),
	get: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/status-pages/{pageId}', summary: 'Get a status page', tags }
		})
		.input(PageIdInput)
		.output(StatusPageOutput)
		.query(({ ctx, input }) => getStatusPage({ ctx: ctx.service, input })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/status-pages',
				summary: 'Create a status page',
				tags,
				successStatus: 201
			}
		})
		.input(CreateStatusPageInput)
		.output(StatusPageOutput)
		.mutation(({ ctx, input }) => createStatusPage({ ctx: ctx.service, input })),
	update: writeProcedure
		.meta({
			rest: {
				method: 'PATCH',
				path: '/v1/status-pages/{pageId}',
				summary: 'Update a status page',
				tags
			}
		})
		.input(UpdateStatusPageInput)
		.output(StatusPageOutput)
		.mutation(({ ctx, input }) => updateStatusPage({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/status-pages/{pageId}',
				summary: 'Delete a status page',
				tags
			}
		})
		.input(PageIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeStatusPage({ ctx: ctx.service, input })),
	// The status site's in-process read; never exposed over HTTP (STYLE 34).
	getPublic: publicProcedure
		.input(GetPublicStatusPageInput)
		.output(PublicStatusPageOutput)
		.query(({ ctx, input }) => getPublicStatusPage({ db: ctx.db, input }))
});
