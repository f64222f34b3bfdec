import { z } from 'zod';
import {
	CreateStatusPageInput,
	GetPublicPageInput,
	ListPublicHistoryInput,
	GetPublicReportInput,
	GrantOutput,
	ListStatusPagesInput,
	PageIdInput,
	PublicFeedOutput,
	PublicGateOutput,
	PublicHistoryOutput,
	PublicReportOutput,
	RequestAccessInput,
	StatusPageListOutput,
	StatusPageOutput,
	StatuspageV2Result,
	UnlockInput,
	UpdateStatusPageInput,
	VerifyAccessInput,
	createStatusPage,
	getPublicFeed,
	getPublicGate,
	getPublicReport,
	getPublicStatusPage,
	getStatusPage,
	getStatuspageV2,
	listPublicHistory,
	listStatusPages,
	removeStatusPage,
	requestStatusPageAccess,
	resolveCustomDomain,
	unlockStatusPage,
	updateStatusPage,
	verifyStatusPageAccess,
	type PublicDeps
} from '../domain/status-page/index.ts';
import { DeletedOutput } from './shared.ts';
import {
	createTRPCRouter,
	publicProcedure,
	readProcedure,
	writeProcedure,
	type TrpcContext
} from './trpc.ts';

const tags = ['status pages'];

export const publicDeps = (ctx: TrpcContext): PublicDeps => ({
	db: ctx.db,
	analytics: ctx.upstate.analytics,
	mailer: ctx.upstate.mailer,
	secret: ctx.upstate.config.authSecret,
	trustedProxyHops: ctx.upstate.config.trustedProxyHops,
	statusPageUrl: ctx.upstate.config.urls.statusPage,
	openedPages: ctx.upstate.openedPages,
	subscribeBudget: ctx.upstate.subscribeBudget
});

// A custom domain may not be one of the service's own addresses, and must point here in DNS.
const domainRules = ({ upstate: { config } }: TrpcContext) => ({
	serviceUrls: [
		config.urls.statusPage,
		config.urls.dashboard,
		config.urls.consent,
		config.urls.api
	],
	dns: config.customDomainDns
});

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
		.mutation(({ ctx, input }) =>
			createStatusPage({ ctx: ctx.service, input, ...domainRules(ctx) })
		),
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
		.mutation(({ ctx, input }) =>
			updateStatusPage({ ctx: ctx.service, input, ...domainRules(ctx) })
		),
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
	// The status site's in-process reads and access steps; never exposed over HTTP (STYLE 34).
	// Each verb applies the page's access gate itself.
	// No `.output()` here: parsing ~1,800 uptime cells was a fifth of an uncached render, and the
	// verb builds exactly `PublicPageOutput` (public.test.ts checks that parsing changes nothing).
	getPublic: publicProcedure
		.input(GetPublicPageInput)
		.query(({ ctx, input }) => getPublicStatusPage({ deps: publicDeps(ctx), input })),
	getPublicReport: publicProcedure
		.input(GetPublicReportInput)
		.output(PublicReportOutput)
		.query(({ ctx, input }) => getPublicReport({ deps: publicDeps(ctx), input })),
	getPublicGate: publicProcedure
		.input(GetPublicPageInput)
		.output(PublicGateOutput)
		.query(({ ctx, input }) => getPublicGate({ deps: publicDeps(ctx), input })),
	getPublicFeed: publicProcedure
		.input(GetPublicPageInput)
		.output(PublicFeedOutput)
		.query(({ ctx, input }) => getPublicFeed({ deps: publicDeps(ctx), input })),
	getStatuspageV2: publicProcedure
		.input(GetPublicPageInput)
		.output(StatuspageV2Result)
		.query(({ ctx, input }) => getStatuspageV2({ deps: publicDeps(ctx), input })),
	getPublicHistory: publicProcedure
		.input(ListPublicHistoryInput)
		.output(PublicHistoryOutput)
		.query(({ ctx, input }) => listPublicHistory({ deps: publicDeps(ctx), input })),
	resolveDomain: publicProcedure
		.input(z.object({ host: z.string().max(300) }))
		.output(z.object({ slug: z.string().nullable() }))
		.query(async ({ ctx, input }) => ({
			slug: await resolveCustomDomain({
				db: ctx.db,
				host: input.host,
				statusPageUrl: ctx.upstate.config.urls.statusPage
			})
		})),
	unlock: publicProcedure
		.input(UnlockInput)
		.output(GrantOutput)
		.mutation(({ ctx, input }) => unlockStatusPage({ deps: publicDeps(ctx), input })),
	requestAccess: publicProcedure
		.input(RequestAccessInput)
		.output(z.object({ sent: z.literal(true) }))
		.mutation(({ ctx, input }) => requestStatusPageAccess({ deps: publicDeps(ctx), input })),
	verifyAccess: publicProcedure
		.input(VerifyAccessInput)
		.output(GrantOutput)
		.mutation(({ ctx, input }) => verifyStatusPageAccess({ deps: publicDeps(ctx), input }))
});
