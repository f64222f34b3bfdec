import { z } from 'zod';
import {
	Access,
	approveAuthorization,
	ApproveAuthorizationInput,
	AuthorizationRequestInput,
	checkAuthorizationRequest,
	denyAuthorization,
	GrantIdInput,
	GrantListOutput,
	listGrants,
	revokeGrant
} from '../domain/oauth/index.ts';
import { oauthDeps } from '../oauth/deps.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, userProcedure, writeProcedure } from './trpc.ts';

// Dashboard only (no rest/mcp meta): the consent screen and Settings → Connected apps.
export const oauthRouter = createTRPCRouter({
	consent: userProcedure
		.input(AuthorizationRequestInput)
		.output(
			z.object({
				clientName: z.string(),
				clientOrigin: z.string(),
				redirectHost: z.string(),
				scope: Access
			})
		)
		.query(async ({ ctx, input }) => {
			const request = await checkAuthorizationRequest({ deps: oauthDeps(ctx.upstate), input });
			const redirect = new URL(request.redirectUri);
			return {
				clientName: request.clientName,
				clientOrigin: request.clientOrigin,
				redirectHost: redirect.host || redirect.protocol,
				scope: request.scope
			};
		}),
	approve: userProcedure
		.input(ApproveAuthorizationInput)
		.output(z.object({ redirectTo: z.string(), grantId: z.number() }))
		.mutation(({ ctx, input }) =>
			approveAuthorization({ deps: oauthDeps(ctx.upstate), userId: ctx.user.id, input })
		),
	deny: userProcedure
		.input(AuthorizationRequestInput)
		.output(z.object({ redirectTo: z.string() }))
		.mutation(({ ctx, input }) => denyAuthorization({ deps: oauthDeps(ctx.upstate), input })),
	listGrants: readProcedure
		.output(GrantListOutput)
		.query(({ ctx }) => listGrants({ ctx: ctx.service })),
	revokeGrant: writeProcedure
		.input(GrantIdInput)
		.output(DeletedOutput)
		.mutation(({ ctx, input }) => revokeGrant({ ctx: ctx.service, input }))
});
