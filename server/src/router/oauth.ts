import { z } from 'zod';
import {
	Access,
	approveAuthorization,
	ApproveAuthorizationInput,
	denyAuthorization,
	GrantIdInput,
	GrantListOutput,
	listGrants,
	openRequest,
	PendingRequestInput,
	revokeGrant
} from '../domain/oauth/index.ts';
import { oauthDeps } from '../oauth/deps.ts';
import { DeletedOutput } from './shared.ts';
import { createTRPCRouter, readProcedure, userProcedure, writeProcedure } from './trpc.ts';

// Dashboard only (no rest/mcp meta): the consent screen and Settings → Connected apps.
export const oauthRouter = createTRPCRouter({
	// What the screen shows, from the request /oauth/authorize checked: no second fetch.
	consent: userProcedure
		.input(PendingRequestInput)
		.output(
			z.object({
				clientName: z.string(),
				clientOrigin: z.string(),
				redirectHost: z.string(),
				scope: Access
			})
		)
		.query(({ ctx, input }) => {
			const request = openRequest(oauthDeps(ctx.upstate).requestKey, input.request);
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
		.input(PendingRequestInput)
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
