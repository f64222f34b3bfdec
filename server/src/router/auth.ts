import { z } from 'zod';
import {
	RequestMagicLinkInput,
	VerifyMagicLinkInput,
	requestMagicLink,
	verifyMagicLink
} from '../domain/auth/index.ts';
import { newWorkspacePlan } from '../domain/limits.ts';
import { createTRPCRouter, publicProcedure, userProcedure } from './trpc.ts';

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
	verifyMagicLink: publicProcedure
		.input(VerifyMagicLinkInput)
		.output(
			z.object({ sessionId: z.string(), userId: z.number(), workspaceId: z.number().nullable() })
		)
		.mutation(({ ctx, input }) => {
			const { plan, limits } = newWorkspacePlan({
				selfHost: ctx.upstate.config.selfHost,
				overrides: ctx.upstate.config.defaultLimits
			});
			return verifyMagicLink({
				db: ctx.db,
				lucia: ctx.upstate.lucia,
				defaultLimits: limits,
				plan,
				localLocation: ctx.upstate.config.services.includes('local-probe'),
				input
			});
		}),
	signOut: userProcedure.output(z.object({ ok: z.literal(true) })).mutation(async ({ ctx }) => {
		if (ctx.sessionId) await ctx.upstate.lucia.invalidateSession(ctx.sessionId);
		return { ok: true as const };
	})
});
