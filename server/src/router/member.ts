import {
	MemberIdInput,
	MemberListOutput,
	MemberOutput,
	UpdateMemberRoleInput,
	listMembers,
	removeMember,
	updateMemberRole
} from '../domain/member/index.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, writeProcedure } from './trpc.ts';

const tags = ['members'];

export const memberRouter = createTRPCRouter({
	list: readProcedure
		.meta({ rest: { method: 'GET', path: '/v1/members', summary: 'List workspace members', tags } })
		.output(MemberListOutput)
		.query(({ ctx }) => listMembers({ ctx: ctx.service })),
	updateRole: writeProcedure
		.meta({
			connect: { method: 'UpdateMemberRole' },
			rest: {
				method: 'PATCH',
				path: '/v1/members/{userId}',
				summary: "Change a member's role",
				tags
			}
		})
		.input(UpdateMemberRoleInput)
		.output(MemberOutput)
		.mutation(({ ctx, input }) => updateMemberRole({ ctx: ctx.service, input })),
	remove: writeProcedure
		.meta({
			rest: { method: 'DELETE', path: '/v1/members/{userId}', summary: 'Remove a member', tags }
		})
		.input(MemberIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => removeMember({ ctx: ctx.service, input }))
});
