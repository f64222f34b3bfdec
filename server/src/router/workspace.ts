import { TRPCError } from '@trpc/server';
import {
	MyWorkspacesOutput,
	SwitchWorkspaceInput,
	UpdateWorkspaceInput,
	WorkspaceOutput,
	WhoamiOutput,
	getCurrentWorkspace,
	getChecklist,
	ChecklistOutput,
	listMyWorkspaces,
	switchWorkspace,
	updateWorkspace,
	whoami
} from '../domain/workspace/index.ts';
import { z } from 'zod';
import { createTRPCRouter, readProcedure, userProcedure, writeProcedure } from './trpc.ts';

const tags = ['workspace'];

export const workspaceRouter = createTRPCRouter({
	current: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/workspace',
				summary: 'The workspace of this credential, with its resolved limits',
				tags
			},
			connect: { method: 'GetWorkspace' }
		})
		.output(WorkspaceOutput)
		.query(({ ctx }) => getCurrentWorkspace({ ctx: ctx.service })),
	whoami: readProcedure
		.meta({
			rest: {
				method: 'GET',
				path: '/v1/whoami',
				summary: 'The workspace and credential making this call',
				tags
			},
			connect: { method: 'Whoami' }
		})
		.output(WhoamiOutput)
		.query(({ ctx }) => whoami({ ctx: ctx.service })),
	update: writeProcedure
		.meta({
			rest: { method: 'PATCH', path: '/v1/workspace', summary: 'Rename the workspace', tags }
		})
		.input(UpdateWorkspaceInput)
		.output(WorkspaceOutput)
		.mutation(({ ctx, input }) => updateWorkspace({ ctx: ctx.service, input })),
	// Dashboard only: the first-run checklist.
	checklist: readProcedure
		.output(ChecklistOutput)
		.query(({ ctx }) => getChecklist({ ctx: ctx.service })),
	// Dashboard only: the workspaces of the signed-in user, and which one the session shows.
	mine: userProcedure
		.output(MyWorkspacesOutput)
		.query(({ ctx }) => listMyWorkspaces({ db: ctx.db, userId: ctx.user.id })),
	switch: userProcedure
		.input(SwitchWorkspaceInput)
		.output(z.object({ workspaceId: z.number() }))
		.mutation(({ ctx, input }) => {
			if (!ctx.sessionId) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
			return switchWorkspace({ db: ctx.db, userId: ctx.user.id, sessionId: ctx.sessionId, input });
		})
});
