import { UpdateWorkspaceInput, WorkspaceOutput, getCurrentWorkspace, updateWorkspace } from '../domain/workspace/index.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['workspace'];

export const workspaceRouter = createTRPCRouter({
	current: readProcedure
		.meta({ rest: { method: 'GET', path: '/v1/workspace', summary: 'The workspace of this credential, with its resolved limits', tags } })
		.output(WorkspaceOutput)
		.query(({ ctx }) => getCurrentWorkspace({ ctx: ctx.service })),
	update: writeProcedure
		.meta({ rest: { method: 'PATCH', path: '/v1/workspace', summary: 'Rename the workspace', tags } })
		.input(UpdateWorkspaceInput)
		.output(WorkspaceOutput)
		.mutation(({ ctx, input }) => updateWorkspace({ ctx: ctx.service, input }))
});
