import { z } from 'zod';
import {
	AdminWorkspace,
	AdminWorkspaceList,
	isInstanceAdmin,
	listAllWorkspaces,
	SetWorkspacePlanInput,
	setWorkspacePlan,
	type AdminCaller
} from '../domain/admin/index.ts';
import { createTRPCRouter, userProcedure } from './trpc.ts';

// The instance admin's page of the dashboard; in-process only (no REST or MCP exposure: API keys
// belong to one workspace, this spans them all).
const adminCaller = (ctx: {
	db: AdminCaller['db'];
	user: AdminCaller['user'];
	upstate: { config: { adminEmails: string[] } };
}): AdminCaller => ({ db: ctx.db, user: ctx.user, adminEmails: ctx.upstate.config.adminEmails });

export const adminRouter = createTRPCRouter({
	isInstanceAdmin: userProcedure
		.output(z.boolean())
		.query(({ ctx }) => isInstanceAdmin(adminCaller(ctx))),
	workspaces: userProcedure
		.output(AdminWorkspaceList)
		.query(({ ctx }) => listAllWorkspaces(adminCaller(ctx))),
	setWorkspacePlan: userProcedure
		.input(SetWorkspacePlanInput)
		.output(AdminWorkspace)
		.mutation(({ ctx, input }) => setWorkspacePlan({ caller: adminCaller(ctx), input }))
});
