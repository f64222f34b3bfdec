import { z } from 'zod';
import {
	AcceptInvitationInput,
	InvitationIdInput,
	InvitationListOutput,
	InvitationOutput,
	InvitationPreview,
	InviteMemberInput,
	acceptInvitation,
	describeInvitation,
	inviteMember,
	listInvitations,
	revokeInvitation
} from '../domain/invitation/index.ts';
import { DeletedOutput } from './shared.ts';
import {
	createTRPCRouter,
	publicProcedure,
	readProcedure,
	userProcedure,
	writeProcedure
} from './trpc.ts';

const tags = ['members'];

export const invitationRouter = createTRPCRouter({
	list: readProcedure
		.meta({
			rest: { method: 'GET', path: '/v1/invitations', summary: 'List pending invitations', tags }
		})
		.output(InvitationListOutput)
		.query(({ ctx }) => listInvitations({ ctx: ctx.service })),
	create: writeProcedure
		.meta({
			rest: {
				method: 'POST',
				path: '/v1/invitations',
				summary: 'Invite someone by e-mail',
				tags,
				successStatus: 201
			}
		})
		.input(InviteMemberInput)
		.output(InvitationOutput)
		.mutation(({ ctx, input }) =>
			inviteMember({
				ctx: ctx.service,
				mailer: ctx.upstate.mailer,
				dashboardUrl: ctx.upstate.config.urls.dashboard,
				input
			})
		),
	revoke: writeProcedure
		.meta({
			rest: {
				method: 'DELETE',
				path: '/v1/invitations/{invitationId}',
				summary: 'Withdraw an invitation',
				tags
			}
		})
		.input(InvitationIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => revokeInvitation({ ctx: ctx.service, input })),
	// Dashboard only: the sign-in page names the workspace an invitation link joins.
	describe: publicProcedure
		.input(AcceptInvitationInput)
		.output(InvitationPreview)
		.query(({ ctx, input }) => describeInvitation({ db: ctx.db, input })),
	// Dashboard only: the signed-in invitee accepts.
	accept: userProcedure
		.input(AcceptInvitationInput)
		.output(z.object({ workspaceId: z.number() }))
		.mutation(({ ctx, input }) => acceptInvitation({ db: ctx.db, user: ctx.user, input }))
});
