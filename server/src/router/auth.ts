import { z } from 'zod';
import {
	FinishProviderSignInInput,
	FinishProviderSignInOutput,
	MagicLinkState,
	RequestMagicLinkInput,
	SignInFlow,
	StartProviderSignInInput,
	VerifyMagicLinkInput,
	checkMagicLink,
	finishProviderSignIn,
	requestMagicLink,
	verifyMagicLink
} from '../domain/auth/index.ts';
import type { Upstate } from '../app.ts';
import type { NewWorkspaceTerms } from '../domain/auth/internal.ts';
import { newWorkspacePlan } from '../domain/limits.ts';
import { createTRPCRouter, publicProcedure, userProcedure } from './trpc.ts';

// A first sign-in's workspace: the self-host plan with SELF_HOST, else free (spec 2.3); a Local
// location only where this process runs the built-in probe.
function newWorkspaceTerms(upstate: Upstate): NewWorkspaceTerms {
	const { config } = upstate;
	return {
		...newWorkspacePlan({ selfHost: config.selfHost, overrides: config.defaultLimits }),
		localLocation: config.services.includes('local-probe')
	};
}

// Dashboard sign-in; in-process only (no REST or MCP exposure).
export const authRouter = createTRPCRouter({
	requestMagicLink: publicProcedure
		.input(RequestMagicLinkInput)
		.output(z.object({ sent: z.literal(true) }))
		.mutation(({ ctx, input }) =>
			requestMagicLink({
				db: ctx.db,
				mailer: ctx.upstate.mailer,
				dashboardUrl: ctx.upstate.config.urls.dashboard,
				input
			})
		),
	checkMagicLink: publicProcedure
		.input(z.object({ token: z.string().max(1000) }))
		.output(MagicLinkState)
		.query(({ ctx, input }) => checkMagicLink({ db: ctx.db, input })),
	verifyMagicLink: publicProcedure
		.input(VerifyMagicLinkInput)
		.output(
			z.object({ sessionId: z.string(), userId: z.number(), workspaceId: z.number().nullable() })
		)
		.mutation(({ ctx, input }) =>
			verifyMagicLink({
				db: ctx.db,
				lucia: ctx.upstate.lucia,
				newWorkspace: newWorkspaceTerms(ctx.upstate),
				input
			})
		),
	// The configured OAuth / OpenID Connect providers, for the sign-in page's buttons.
	providers: publicProcedure
		.output(z.array(z.object({ id: z.string(), name: z.string() })))
		.query(({ ctx }) => ctx.upstate.signInProviders.list),
	startProviderSignIn: publicProcedure
		.input(StartProviderSignInInput)
		.output(z.object({ url: z.string(), flow: SignInFlow }))
		.mutation(({ ctx, input }) => ctx.upstate.signInProviders.start(input)),
	finishProviderSignIn: publicProcedure
		.input(FinishProviderSignInInput)
		.output(FinishProviderSignInOutput)
		.mutation(({ ctx, input }) =>
			finishProviderSignIn({
				db: ctx.db,
				lucia: ctx.upstate.lucia,
				providers: ctx.upstate.signInProviders,
				newWorkspace: newWorkspaceTerms(ctx.upstate),
				input
			})
		),
	signOut: userProcedure.output(z.object({ ok: z.literal(true) })).mutation(async ({ ctx }) => {
		if (ctx.sessionId) await ctx.upstate.lucia.invalidateSession(ctx.sessionId);
		return { ok: true as const };
	})
});
